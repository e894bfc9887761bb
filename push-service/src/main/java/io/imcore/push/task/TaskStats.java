package io.imcore.push.task;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A task's counters per channel ({@code [target, sent, received, failed, rejected]}), progress, times and failure
 * reasons, for POST /push/task/detail.
 *
 * @param finishedAt null until the task is final
 */
public record TaskStats(
        long taskId,
        TaskState state,
        long devicesExpanded,
        int batchesTotal,
        int batchesDone,
        Map<String, int[]> counters,
        String failureReason,
        Instant createdAt,
        Instant finishedAt,
        List<Failure> failures) {

    /** How many targets of a channel ended {@code failed} or {@code rejected} for one reason. */
    public record Failure(String channel, String outcome, String reason, int count) {}
}
