package io.imcore.common.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublicAddressesTest {

    @Test
    void tellsPublicAddressesFromOthers() throws IOException {
        for (String address : List.of("8.8.8.8", "1.1.1.1", "2001:4860:4860::8888")) {
            assertTrue(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
        }
        for (String address : List.of("127.0.0.1", "0.0.0.0", "10.0.0.1", "172.16.5.4", "192.168.1.1",
                "169.254.169.254", "100.64.0.1", "224.0.0.1", "::1", "fe80::1", "fd00::1")) {
            assertFalse(PublicAddresses.isPublic(InetAddress.getByName(address)), address);
        }
    }

    @Test
    void allowsLoopbackOnlyWhenToldAndNeverThePrivateNetwork() throws IOException {
        assertFalse(PublicAddresses.allPublic("127.0.0.1", false));
        assertTrue(PublicAddresses.allPublic("127.0.0.1", true));
        assertFalse(PublicAddresses.allPublic("10.0.0.1", true));
        assertFalse(PublicAddresses.allPublic("169.254.169.254", true));
        assertTrue(PublicAddresses.allPublic("8.8.8.8", false));
    }
}
