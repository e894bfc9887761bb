package io.imcore.throttle;

import io.netty.util.NetUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A list of IP addresses and CIDR ranges ({@code 10.0.0.0/8}, {@code ::1}); literals only, never a DNS lookup. */
final class AddressRanges {

    private record Range(byte[] network, int prefixBits) {

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int whole = prefixBits / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefixBits % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest);
            return (address[whole] & mask) == (network[whole] & mask);
        }
    }

    private final List<Range> ranges;

    private AddressRanges(List<Range> ranges) {
        this.ranges = ranges;
    }

    /** Parses each entry; an entry that is not an address or a range stops the service at start. */
    static AddressRanges parse(String what, List<String> entries) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : entries) {
            String text = entry.trim();
            if (text.isEmpty()) {
                continue;
            }
            int slash = text.indexOf('/');
            byte[] network = literal(slash < 0 ? text : text.substring(0, slash));
            int bits = network == null ? -1 : network.length * 8;
            if (slash >= 0 && network != null) {
                try {
                    bits = Integer.parseInt(text.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
            }
            if (network == null || bits < 0 || bits > network.length * 8) {
                throw new IllegalArgumentException(what + ": not an IP address or CIDR range: " + text);
            }
            ranges.add(new Range(network, bits));
        }
        return new AddressRanges(List.copyOf(ranges));
    }

    /** The bytes of an IPv4 or IPv6 literal, or null when the text is not one. */
    static byte[] literal(String text) {
        String bare = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(bare);
        return bytes != null && isIpv4Mapped(bytes) ? Arrays.copyOfRange(bytes, 12, 16) : bytes;
    }

    /** {@code ::ffff:a.b.c.d} is the IPv4 client a.b.c.d on a dual-stack socket. */
    private static boolean isIpv4Mapped(byte[] bytes) {
        if (bytes.length != 16 || bytes[10] != (byte) 0xff || bytes[11] != (byte) 0xff) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    boolean isEmpty() {
        return ranges.isEmpty();
    }

    boolean contains(byte[] address) {
        for (Range range : ranges) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }
}
