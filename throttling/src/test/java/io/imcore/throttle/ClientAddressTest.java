package io.imcore.throttle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressTest {

    private final ClientAddress behindGateway = new ClientAddress(List.of("127.0.0.1", "10.0.0.0/8"),
            List.of("192.0.2.0/24"));

    @Test
    void withoutTrustedProxiesTheHeaderIsIgnored() {
        ClientAddress direct = new ClientAddress(List.of(), List.of());
        assertEquals("203.0.113.7", direct.limitedKey("203.0.113.7", List.of("198.51.100.1")));
    }

    @Test
    void anUntrustedPeerCannotNameAnotherClient() {
        assertEquals("203.0.113.7", behindGateway.limitedKey("203.0.113.7", List.of("198.51.100.1")));
    }

    @Test
    void theGatewaysAddressOfTheClientIsUsed() {
        assertEquals("198.51.100.1", behindGateway.limitedKey("127.0.0.1", List.of("198.51.100.1")));
    }

    @Test
    void whatAClientWroteLeftOfTheGatewaysEntryIsNeverReached() {
        // a gateway that appends ($proxy_add_x_forwarded_for) behind a trusted internal proxy
        assertEquals("198.51.100.1", behindGateway.limitedKey("127.0.0.1",
                List.of("6.6.6.6, 198.51.100.1, 10.1.2.3")));
        assertEquals("198.51.100.1", behindGateway.limitedKey("127.0.0.1", List.of("6.6.6.6", "198.51.100.1")));
    }

    @Test
    void garbageInTheHeaderStopsTheWalkAtTheLastTrustedHop() {
        assertEquals("10.1.2.3", behindGateway.limitedKey("127.0.0.1", List.of("evil.example, 10.1.2.3")));
        assertEquals("127.0.0.1", behindGateway.limitedKey("127.0.0.1", List.of("not an address")));
        assertEquals("127.0.0.1", behindGateway.limitedKey("127.0.0.1", List.of()));
    }

    @Test
    void ipv6ClientsAreKeyedByTheirSlash64AndMappedIpv4IsIpv4() {
        ClientAddress direct = new ClientAddress(List.of(), List.of());
        assertEquals(direct.limitedKey("2001:db8:1:2:aaaa::1", List.of()),
                direct.limitedKey("[2001:db8:1:2:bbbb::9]", List.of()));
        assertEquals("2001:db8:1:2:0:0:0:0/64", direct.limitedKey("2001:db8:1:2:aaaa::1", List.of()));
        assertEquals("198.51.100.1", direct.limitedKey("::ffff:198.51.100.1", List.of()));
    }

    @Test
    void unlimitedAddressesHaveNoKey() {
        assertNull(behindGateway.limitedKey("127.0.0.1", List.of("192.0.2.55")));
        assertNull(behindGateway.limitedKey(null, List.of()));
    }

    @Test
    void aWrongRangeStopsTheService() {
        assertThrows(IllegalArgumentException.class, () -> new ClientAddress(List.of("10.0.0.0/33"), List.of()));
        assertThrows(IllegalArgumentException.class, () -> new ClientAddress(List.of("gateway.local"), List.of()));
    }
}
