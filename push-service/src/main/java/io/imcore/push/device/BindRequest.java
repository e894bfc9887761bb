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

    /**
     * One provider token bound to a device of the user ({@code GET /user/token/list}); the token itself is masked
     * and bound_at is in epoch milliseconds.
     */
    @RegisterForReflection
    public record BoundToken(int deviceSn, String notifierName, String channel, String deviceTokenMasked, long boundAt) {}

    @RegisterForReflection
    public record BoundTokenList(List<BoundToken> list) {}

    /** The user's opt-out: true = no pushes to any of the user's devices. */
    @RegisterForReflection
    public record PushSetting(boolean pushDisabled) {}
}
