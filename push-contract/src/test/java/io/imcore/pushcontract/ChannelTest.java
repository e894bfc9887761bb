package io.imcore.pushcontract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChannelTest {

    @Test
    void everyChannelIsFoundByItsWireNameAndNothingElseIs() {
        for (Channel channel : Channel.values()) {
            assertEquals(Optional.of(channel), Channel.fromWireName(channel.wireName()));
        }
        assertEquals("vendor_a", Channel.HUAWEI.wireName());
        assertEquals("push.vendor_a", Channel.HUAWEI.topic());
        assertTrue(Channel.fromWireName("HUAWEI").isEmpty(), "wire names are lower case, as on the wire");
        assertTrue(Channel.fromWireName("apns").isEmpty());
        assertTrue(Channel.fromWireName("").isEmpty());
        assertTrue(Channel.fromWireName(null).isEmpty());
    }

    @Test
    void storedRequestsReadTheWireNameAndTheFormerConstantNames() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertEquals("[\"ios\",\"vendor_e\"]", json.writeValueAsString(List.of(Channel.APNS, Channel.MEIZU)));
        assertEquals(List.of(Channel.FCM, Channel.HUAWEI, Channel.MEIZU),
                json.readValue("[\"cloud\",\"VENDOR_A\",\"vendor_e\"]", new TypeReference<List<Channel>>() {}));
        assertEquals(Channel.APNS, json.readValue("\"IOS\"", Channel.class));
        assertThrows(Exception.class, () -> json.readValue("\"APNS\"", Channel.class));
    }
}
