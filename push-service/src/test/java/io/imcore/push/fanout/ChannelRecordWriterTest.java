package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.pushcontract.PushBatch;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class ChannelRecordWriterTest {

    @Test
    void compressionTakesKafkasNames() {
        assertEquals("lz4", ChannelRecordWriter.compressionType("lz4"));
        assertEquals("none", ChannelRecordWriter.compressionType("none"));
        assertEquals("zstd", ChannelRecordWriter.compressionType("zstd"));
    }

    @Test
    void compressionRefusesOtherNamesWithTheSetting() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> ChannelRecordWriter.compressionType("brotli"));
        assertTrue(refused.getMessage().startsWith("im.push.fanout.compression:"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(": brotli"), refused.getMessage());
    }

    @Test
    void aTaskBatchAndAnOfflineRecordGoToTheirChannelsTopicUnderTheirBatchKey() {
        ObjectMapper mapper = new ObjectMapper();
        List<PushBatch.Target> one = List.of(new PushBatch.Target(7L, 70L, 0, "token-7", null, null, null));
        PushBatch task = new PushBatch(PushBatch.VERSION, 42L, "app", 3, "vendor_b", mapper.createObjectNode(), null,
                one, null);
        PushBatch offline = new PushBatch(PushBatch.VERSION, 0L, "app", 0, "ios", mapper.createObjectNode(), null,
                one, new PushBatch.Offline(99L, "u:5", 1L));
        byte[] json = "{}".getBytes(StandardCharsets.UTF_8);

        ProducerRecord<String, byte[]> taskRecord = ChannelRecordWriter.record(new ChannelRecords.Encoded(task, json));
        assertEquals("push.vendor_b", taskRecord.topic());
        assertEquals("42:3", taskRecord.key());
        assertArrayEquals(json, taskRecord.value());

        ProducerRecord<String, byte[]> offlineRecord =
                ChannelRecordWriter.record(new ChannelRecords.Encoded(offline, json));
        assertEquals("push.ios", offlineRecord.topic());
        assertEquals("app:m99:0", offlineRecord.key());
    }
}
