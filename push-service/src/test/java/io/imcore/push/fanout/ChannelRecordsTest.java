package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ChannelRecordsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    @Test
    void aBatchThatFitsIsOneRecordUnchanged() {
        PushBatch batch = batch(7, 10, MAPPER.createObjectNode());
        List<ChannelRecords.Encoded> records = new ChannelRecords(MAPPER, 100_000).encode(batch);
        assertEquals(1, records.size());
        assertSame(batch, records.get(0).batch());
        assertEquals("push.vendor_a", records.get(0).topic());
    }

    @Test
    void aLargerBatchIsCutIntoConsecutiveRecordsWithinTheBudgetInTargetOrder() throws Exception {
        ObjectNode message = MAPPER.createObjectNode().put("title", "t");
        ObjectNode badges = message.putObject("badges");
        LongStream.rangeClosed(1, 100).forEach(id -> badges.put(Long.toString(id), (int) id));
        int budget = 8_000;

        List<ChannelRecords.Encoded> records = new ChannelRecords(MAPPER, budget).encode(batch(7, 100, message));

        assertTrue(records.size() > 1);
        List<Long> devices = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            ChannelRecords.Encoded record = records.get(i);
            assertTrue(record.json().length <= budget, record.json().length + " bytes");
            assertEquals(7 + i, record.batch().batchNo(), "numbered on from the batch's own number");
            PushBatch read = MAPPER.readValue(record.json(), PushBatch.class);
            assertEquals(record.batch().key(), read.key());
            List<String> own = read.targets().stream().map(t -> Long.toString(t.deviceId())).toList();
            List<String> badged = new ArrayList<>();
            read.message().path("badges").fieldNames().forEachRemaining(badged::add);
            assertEquals(own, badged, "each part keeps its own devices' badges");
            read.targets().forEach(t -> devices.add(t.deviceId()));
        }
        assertEquals(LongStream.rangeClosed(1, 100).boxed().toList(), devices, "every target once, in order");
        assertEquals(100, badges.size(), "the batch's own message is left as it was");
    }

    @Test
    void aSingleTargetOverTheBudgetIsAnErrorNamingTheSetting() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ChannelRecords(MAPPER, 200).encode(batch(0, 3, MAPPER.createObjectNode())));
        assertTrue(refused.getMessage().contains("im.push.fanout.record-max-bytes"), refused.getMessage());
    }

    @Test
    void aBudgetAtOrAboveKafkasRecordLimitIsRefusedAtStart() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> new ChannelRecords(MAPPER, 1_048_576));
        assertTrue(refused.getMessage().startsWith("im.push.fanout.record-max-bytes:"), refused.getMessage());
    }

    private static PushBatch batch(int batchNo, int targets, ObjectNode message) {
        List<Target> list = LongStream.rangeClosed(1, targets)
                .mapToObj(id -> new Target(id, 1000 + id, 1, "x".repeat(512), "vendor_a-prod", 1, null)).toList();
        return new PushBatch(PushBatch.VERSION, 42, "app", batchNo, "vendor_a", message, null, list, null);
    }
}
