package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ChannelTopicsTest {

    @Test
    void compressionTakesKafkasNames() {
        assertEquals("lz4", ChannelTopics.compression("lz4"));
        assertEquals("none", ChannelTopics.compression("none"));
        assertEquals("zstd", ChannelTopics.compression("zstd"));
    }

    @Test
    void compressionRefusesOtherNamesWithTheSetting() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> ChannelTopics.compression("brotli"));
        assertTrue(refused.getMessage().startsWith("im.push.fanout.compression:"), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(": brotli"), refused.getMessage());
    }
}
