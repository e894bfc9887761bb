package io.imcore.common.events;

import io.imcore.common.kafka.Topics;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Record format (version 1) of topic {@value #TOPIC}, published by message-service when a device's live connection
 * opens or closes (docs/events.md); push-service routes the combined and svcpush_only strategies by it.
 * Key {@code app_id:user_id:device_sn}, so one device's changes stay in order. {@code seq} grows with every change
 * of the device (the connection time in milliseconds): a consumer keeps the newest and ignores older replays.
 */
@RegisterForReflection
public record PresenceEvent(int v, String type, String appId, long userId, int deviceSn, String replicaId,
        long seq, long at) {

    public static final String TOPIC = Topics.PRESENCE_EVENTS;
    public static final int VERSION = 1;

    public static final String DEVICE_ONLINE = "device.online";
    public static final String DEVICE_OFFLINE = "device.offline";

    public static PresenceEvent of(String type, String appId, long userId, int deviceSn, String replicaId, long seq) {
        return new PresenceEvent(VERSION, type, appId, userId, deviceSn, replicaId, seq, System.currentTimeMillis());
    }

    public String key() {
        return appId + ":" + userId + ":" + deviceSn;
    }
}
