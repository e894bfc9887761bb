package io.imcore.message.presence;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** GET /user/online_status: whether the user has a connected device, and which. */
@RegisterForReflection
public record OnlineStatus(long userId, boolean online, List<OnlineDevice> devices) {

    @RegisterForReflection
    public record OnlineDevice(int deviceSn, long connectedAt) {}
}
