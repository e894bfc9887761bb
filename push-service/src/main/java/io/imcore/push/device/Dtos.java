package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Wire shapes of the device registry endpoints (snake_case JSON; docs/push-devices.md). */
public final class Dtos {

    private Dtos() {
    }

    @RegisterForReflection
    public record BindRequest(Integer deviceSn, String deviceToken, String notifierName) {}

    @RegisterForReflection
    public record UnbindRequest(Integer deviceSn) {}

    @RegisterForReflection
    public record TagsRequest(List<String> tags) {}

    @RegisterForReflection
    public record AliasRequest(String alias, String pushToken) {}

    /** The user's opt-out: true = no pushes to any of the user's devices. */
    @RegisterForReflection
    public record PushSetting(boolean pushDisabled) {}
}
