package io.imcore.message.conversation;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Address (api.md 2.4): a user, a group, or 0 for the system. */
@RegisterForReflection
@JsonPropertyOrder({"uid", "device_sn", "set_uid", "set_device_sn"})
public record Address(long uid, Integer deviceSn, boolean setUid, boolean setDeviceSn) {

    public static Address of(long uid, Integer deviceSn) {
        return new Address(uid, deviceSn, true, deviceSn != null);
    }
}
