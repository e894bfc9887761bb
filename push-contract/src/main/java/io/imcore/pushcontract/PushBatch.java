package io.imcore.pushcontract;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param offline      set on the records of a chat message's offline push (docs/offline-push.md): there is no task
 *                     ({@code taskId} 0); the devices' rows in {@code offline_push_trace} are the claim and the count
 */
public record PushBatch(
        int v,
        long taskId,
        String appId,
        int batchNo,
        String channel,
        ObjectNode message,
        Long showEndTime,
        List<Target> targets,
        @JsonInclude(JsonInclude.Include.NON_NULL) Offline offline) {

    public static final int VERSION = 1;

    /**
     * The record key: spreads one task's batches (an offline push: one message's records, one per recipient) over the
     * topic's partitions.
     */
    public String key() {
        return offline != null ? appId + ":m" + offline.msgId() + ":" + batchNo : taskId + ":" + batchNo;
    }

    /**
     * The message an offline push notifies of, and the recipient's conversation it belongs to ({@code u:<peer>},
     * {@code g:<group>} or {@code s}): a newer message of one conversation supersedes an older one not yet sent.
     * {@code createdMs} is when the message was stored (epoch ms), for the delay until the provider accepted its
     * notification; 0 in records written before it was carried (no delay measured).
     */
    public record Offline(long msgId, String conversation, long createdMs) {}

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
