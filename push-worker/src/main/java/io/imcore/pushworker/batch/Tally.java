package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What one batch came to, per channel (a svcpush batch also counts on the OS channels it fell back to). */
final class Tally {

    /** A stored reason is cut to this many characters (push_task_failures.reason). */
    static final int REASON_CHARACTERS = 100;

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

    /** A push_task_failures key within the task. */
    record FailureKey(Channel channel, String outcome, String reason) {}

    /** How one device's delivery ended: sent, failed or rejected, with the provider's reason (offline push traces). */
    record DeviceOutcome(String state, String reason) {}

    private final Map<Channel, Counts> counts = new EnumMap<>(Channel.class);
    private final Map<Long, DeviceOutcome> deviceOutcomes = new HashMap<>();
    private final List<RejectedToken> rejectedTokens = new ArrayList<>();
    private final Map<FailureKey, Integer> failures = new HashMap<>();

    synchronized Counts of(Channel channel) {
        return counts.computeIfAbsent(channel, c -> new Counts());
    }

    /** {@code targets} given up on the channel for the reason. */
    synchronized void failed(Channel channel, String reason, int targets) {
        of(channel).failed += targets;
        failures.merge(new FailureKey(channel, "failed", shortReason(reason)), targets, Integer::sum);
    }

    synchronized void rejected(long deviceId, Channel channel, String token, String reason) {
        of(channel).rejected++;
        deviceOutcomes.put(deviceId, new DeviceOutcome("rejected", shortReason(reason)));
        rejectedTokens.add(new RejectedToken(deviceId, channel, token));
        failures.merge(new FailureKey(channel, "rejected", shortReason(reason)), 1, Integer::sum);
    }

    /** The device's outcome, beside the counts (a sent device's reason is null). */
    synchronized void device(long deviceId, String state, String reason) {
        deviceOutcomes.put(deviceId, new DeviceOutcome(state, reason == null ? null : shortReason(reason)));
    }

    Map<Long, DeviceOutcome> deviceOutcomes() {
        return deviceOutcomes;
    }

    private static String shortReason(String reason) {
        if (reason == null || reason.isBlank()) {
            return "unknown";
        }
        String trimmed = reason.strip().replace('\u0000', ' ');
        return trimmed.codePointCount(0, trimmed.length()) <= REASON_CHARACTERS ? trimmed
                : trimmed.substring(0, trimmed.offsetByCodePoints(0, REASON_CHARACTERS));
    }

    Map<Channel, Counts> counts() {
        return counts;
    }

    List<RejectedToken> rejectedTokens() {
        return rejectedTokens;
    }

    /** Failed and rejected targets per channel, outcome and reason; they sum to the counts' failed and rejected. */
    Map<FailureKey, Integer> failures() {
        return failures;
    }
}
