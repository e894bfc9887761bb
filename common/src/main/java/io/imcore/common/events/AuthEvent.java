package io.imcore.common.events;

import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.imcore.common.kafka.Topics;

/**
 * Record format (version 1) of topic {@value #TOPIC}, published by auth-service so that other services keep their
 * own view of apps, users and devices (docs/events.md). Each event carries the full current state of its subject,
 * so a consumer upserts it and ignores one whose version is older than what it holds.
 * Key: the subject, {@code app_id}, {@code app_id:user_id} or {@code app_id:user_id:device_sn}; the topic is compacted,
 * so the latest record per key is the subject's current state and a new consumer rebuilds its view from offset 0.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuthEvent(
        int v,
        String type,
        String appId,
        Integer adminTokenVersion,
        Long userId,
        Integer tokenVersion,
        Boolean disabled,
        Integer deviceSn,
        String deviceGuid,
        String pushToken,
        long at) {

    public static final String TOPIC = Topics.AUTH_EVENTS;
    public static final int VERSION = 1;

    public static final String APP_CREATED = "app.created";
    public static final String APP_ADMIN_TOKEN_ROTATED = "app.admin_token_rotated";
    public static final String USER_REGISTERED = "user.registered";
    public static final String USER_CHANGED = "user.changed";
    public static final String DEVICE_REGISTERED = "device.registered";
    /** The user's device was removed (past the user's device limit): its key's state is "no such device". */
    public static final String DEVICE_REMOVED = "device.removed";

    public static AuthEvent app(String type, String appId, int adminTokenVersion) {
        return new AuthEvent(VERSION, type, appId, adminTokenVersion, null, null, null, null, null, null,
                System.currentTimeMillis());
    }

    public static AuthEvent user(String type, String appId, long userId, int tokenVersion, boolean disabled) {
        return new AuthEvent(VERSION, type, appId, null, userId, tokenVersion, disabled, null, null, null,
                System.currentTimeMillis());
    }

    public static AuthEvent device(String appId, long userId, int deviceSn, String deviceGuid, String pushToken) {
        return new AuthEvent(VERSION, DEVICE_REGISTERED, appId, null, userId, null, null, deviceSn, deviceGuid, pushToken,
                System.currentTimeMillis());
    }

    public static AuthEvent deviceRemoved(String appId, long userId, int deviceSn, String deviceGuid) {
        return new AuthEvent(VERSION, DEVICE_REMOVED, appId, null, userId, null, null, deviceSn, deviceGuid, null,
                System.currentTimeMillis());
    }

    public String key() {
        if (userId == null) {
            return appId;
        }
        return deviceSn == null ? appId + ":" + userId : appId + ":" + userId + ":" + deviceSn;
    }
}
