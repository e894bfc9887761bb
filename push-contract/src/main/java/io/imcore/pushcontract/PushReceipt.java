package io.imcore.pushcontract;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.imcore.common.kafka.Topics;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Record format (version 1) of topic {@value #TOPIC}: a device acknowledged a svcpush notification of a task on
 * its live connection (docs/events.md), published by message-service, counted by push-worker. Key: the task id, so one task's receipts stay in order on one partition.
 */
@RegisterForReflection
@JsonPropertyOrder({"v", "task_id", "app_id", "channel", "user_id", "device_sn"})
public record PushReceipt(int v, long taskId, String appId, String channel, long userId, int deviceSn) {

    /** Delivery receipts of push notifications; push-worker counts them as "received" (decisions.md section 5). */
    public static final String TOPIC = Topics.PUSH_RECEIPTS;
    public static final int VERSION = 1;

    public static PushReceipt svcpush(long taskId, String appId, long userId, int deviceSn) {
        return new PushReceipt(VERSION, taskId, appId, Channel.SVCPUSH.wireName(), userId, deviceSn);
    }

    public String key() {
        return String.valueOf(taskId);
    }
}
