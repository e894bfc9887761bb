package io.imcore.throttle;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * The address of the client behind the gateway, for the per-address limits. {@code X-Forwarded-For} is read only
 * when the TCP peer is a trusted proxy, and from the right: each trusted proxy appends the address it saw, so the
 * right-most entry that is not itself a trusted proxy is the client; whatever a client wrote into the header
 * stands further left and is never reached. IPv6 clients are keyed by their /64 (one subscriber's usual prefix).
 */
@ApplicationScoped
public class ClientAddress {

    static final String FORWARDED_FOR = "X-Forwarded-For";

    private final AddressRanges trustedProxies;
    private final AddressRanges unlimited;

    @Inject
    public ClientAddress(ThrottleConfig config) {
        this(config.trustedProxies().orElse(List.of()), config.unlimitedAddresses().orElse(List.of()));
    }

    ClientAddress(List<String> trustedProxies, List<String> unlimited) {
        this.trustedProxies = AddressRanges.parse("im.throttle.trusted-proxies", trustedProxies);
        this.unlimited = AddressRanges.parse("im.throttle.unlimited-addresses", unlimited);
    }

    /** The client's key for per-address limits, or null when the address is exempt from them. */
    public String limitedKey(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        return limitedKey(peer == null ? null : peer.hostAddress(), request.headers().getAll(FORWARDED_FOR));
    }

    String limitedKey(String peer, List<String> forwardedFor) {
        byte[] client = client(peer, forwardedFor);
        return client == null || unlimited.contains(client) ? null : key(client);
    }

    /** The client's address from the TCP peer and the X-Forwarded-For headers; null when the peer is unknown. */
    byte[] client(String peer, List<String> forwardedFor) {
        byte[] address = peer == null ? null : AddressRanges.literal(peer);
        if (address == null || trustedProxies.isEmpty() || !trustedProxies.contains(address)) {
            return address;
        }
        String[] hops = String.join(",", forwardedFor).split(",");
        for (int i = hops.length - 1; i >= 0; i--) {
            byte[] hop = AddressRanges.literal(hops[i].trim());
            if (hop == null) {
                // not an address (a name, garbage): nothing left of it can be trusted, the last good hop is the client
                return address;
            }
            address = hop;
            if (!trustedProxies.contains(hop)) {
                return hop;
            }
        }
        return address;
    }

    /** The key of an address: itself for IPv4, its /64 for IPv6. */
    static String key(byte[] client) {
        return client.length == 16 ? text(Arrays.copyOf(Arrays.copyOf(client, 8), 16)) + "/64" : text(client);
    }

    private static String text(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
