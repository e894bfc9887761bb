package io.imcore.common.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The check against server-side request forgery for URLs that come from a tenant (push images, webhook endpoints):
 * a host that resolves to a loopback, private, link-local (cloud metadata) or other non-public address is refused,
 * so that a service never becomes a probe of the network it runs in.
 */
public final class PublicAddresses {

    private PublicAddresses() {
    }

    /** Not loopback, wildcard, private, link-local, multicast, carrier-grade NAT or IPv6 unique-local. */
    public static boolean isPublic(InetAddress address) {
        byte[] bytes = address.getAddress();
        boolean carrierNat = bytes.length == 4 && (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
        boolean uniqueLocal = bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc;
        return !(address.isLoopbackAddress() || address.isAnyLocalAddress() || address.isSiteLocalAddress()
                || address.isLinkLocalAddress() || address.isMulticastAddress() || carrierNat || uniqueLocal);
    }

    /**
     * Whether every address {@code host} resolves to is public, or, with {@code loopbackAllowed} (a local stack whose
     * receivers run on the same machine), loopback. Every address counts: one private answer among public ones is
     * enough to reach the private network.
     *
     * @throws UnknownHostException when the host does not resolve
     */
    public static boolean allPublic(String host, boolean loopbackAllowed) throws UnknownHostException {
        for (InetAddress address : InetAddress.getAllByName(host)) {
            if (!isPublic(address) && !(loopbackAllowed && address.isLoopbackAddress())) {
                return false;
            }
        }
        return true;
    }
}
