package io.imcore.common.push;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One record of a channel topic ({@code push.<channel>}), format version {@value #VERSION}: a batch of targets of
 * one task for one channel (docs/push-fanout.md). push-service writes it inside a Kafka transaction together with
 * the expansion checkpoint; push-worker reads it with {@code isolation.level=read_committed}. {@code batchNo} is
 * unique within the task (key {@code task_id:batch_no}), so a consumer that sees a batch again can tell.
 *
 * @param message      the normalized push message (docs/push-notify.md)
 * @param showEndTime  epoch seconds after which nothing of the task is sent, or null
 */
public record PushBatch(
        int v,
        long taskId,
        String appId,
        int batchNo,
        String channel,
        ObjectNode message,
        Long showEndTime,
        List<Target> targets) {

    public static final int VERSION = 1;

    /** The record key: spreads one task's batches over the topic's partitions. */
    public String key() {
        return taskId + ":" + batchNo;
    }

    /**
     * One device. For an OS channel {@code token}, {@code notifierName} and {@code environment} say where to send;
     * for svcpush the device is addressed by app, user and device_sn and {@code fallback} (combined strategy only)
     * is the OS channel to use when the device turns out to be offline.
     */
    public record Target(
            long deviceId,
            long userId,
            int deviceSn,
            String token,
            String notifierName,
            Integer environment,
            OsRoute fallback) {}

    /** An OS channel route of a device: the channel and the device's bound provider token there. */
    public record OsRoute(String channel, String token, String notifierName, int environment) {}
}
