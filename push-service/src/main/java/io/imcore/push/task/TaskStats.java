package io.imcore.push.task;

import java.util.Map;

/** A task's counters per channel ({@code [target, sent, received]}) and progress, for POST /push/task/detail. */
public record TaskStats(
        long taskId,
        TaskState state,
        long devicesExpanded,
        int batchesTotal,
        int batchesDone,
        Map<String, int[]> counters,
        String failureReason) {}
