package io.imcore.common.push;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChannelTest {

    @Test
    void everyChannelIsFoundByItsWireNameAndNothingElseIs() {
        for (Channel channel : Channel.values()) {
            assertEquals(Optional.of(channel), Channel.fromWireName(channel.wireName()));
        }
        assertEquals("vendor_a", Channel.VENDOR_A.wireName());
        assertEquals("push.vendor_a", Channel.VENDOR_A.topic());
        assertTrue(Channel.fromWireName("VENDOR_A").isEmpty(), "wire names are lower case, as on the wire");
        assertTrue(Channel.fromWireName("apns").isEmpty());
        assertTrue(Channel.fromWireName("").isEmpty());
        assertTrue(Channel.fromWireName(null).isEmpty());
    }
}
