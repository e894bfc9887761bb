package io.imcore.push.stats;

/**
 * One row of GET /push/task/list: the task and its counters summed over every channel.
 *
 * @param createdAt acceptance time, epoch milliseconds
 * @param body      cut to {@link TaskListStore#BODY_CHARACTERS} characters
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
        long rejected) {}
