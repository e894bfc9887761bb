package io.imcore.push.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * data of GET /push/task/history: what a task sent, who sent it, and its deliveries over time.
 *
 * @param createdAt         acceptance time, epoch milliseconds
 * @param sentVia           {@code console} or {@code api}; null for tasks stored before it was recorded
 * @param adminTokenVersion the version of the admin token that sent it; null likewise
 * @param request           the stored request in the shape of a /push/notify body, normalized (docs/push-notify.md)
 * @param timeline          sent, failed, rejected and received per time bucket and channel
 */
public record TaskHistory(
        long taskId,
        String state,
        long createdAt,
        String sentVia,
        Integer adminTokenVersion,
        ObjectNode request,
        Timeline timeline) {

    /**
     * @param bucketSeconds the width of every bucket (1 s to 1 day, chosen so that the task's span is at most about
     *                      120 buckets); null when nothing has a time yet
     * @param points        only buckets with something in them, by time, then channel
     */
    public record Timeline(Integer bucketSeconds, List<Point> points) {}

    /** One bucket of one channel: {@code at} is its start, epoch milliseconds. */
    public record Point(long at, String channel, long sent, long failed, long rejected, long received) {}
}
