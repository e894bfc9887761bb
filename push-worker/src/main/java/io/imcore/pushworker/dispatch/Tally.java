package io.imcore.pushworker.dispatch;

import io.imcore.common.push.Channel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What one batch came to, per channel (a svcpush batch also counts on the OS channels it fell back to). */
final class Tally {

    /** The counters of one channel; names as the push_task_counts columns. */
    static final class Counts {
        int sent;
        int failed;
        int rejected;
        int fallbackIn;
        int fallbackOut;
    }

    /** A provider token refused for good: unbound from its device. */
    record RejectedToken(long deviceId, Channel channel, String token) {}

    private final Map<Channel, Counts> counts = new EnumMap<>(Channel.class);
    private final List<RejectedToken> rejectedTokens = new ArrayList<>();

    synchronized Counts of(Channel channel) {
        return counts.computeIfAbsent(channel, c -> new Counts());
    }

    synchronized void rejected(long deviceId, Channel channel, String token) {
        of(channel).rejected++;
        rejectedTokens.add(new RejectedToken(deviceId, channel, token));
    }

    Map<Channel, Counts> counts() {
        return counts;
    }

    List<RejectedToken> rejectedTokens() {
        return rejectedTokens;
    }
}
