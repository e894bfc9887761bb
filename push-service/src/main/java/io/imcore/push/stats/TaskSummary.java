package io.imcore.push.stats;

/**
 * One row of GET /push/task/list: the task and its counters summed over every channel.
 *
 * @param createdAt acceptance time, epoch milliseconds
 * @param body      cut to {@link TaskListStore#BODY_CHARACTERS} characters
 * @param measuredTarget the target on the channels that report deliveries (all but ios and cloud): what
 *                       {@code received} can reach; 0 when only unmeasured channels had targets
 */
public record TaskSummary(
        long taskId,
        long createdAt,
        String state,
        String title,
        String body,
        String requestId,
        long target,
        long sent,
        long received,
        long failed,
        long rejected,
        long measuredTarget) {}
