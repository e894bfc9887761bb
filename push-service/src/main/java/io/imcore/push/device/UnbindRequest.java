package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of {@code POST/DELETE /user/token/unbind} (snake_case JSON; docs/push-devices.md). */
@RegisterForReflection
public record UnbindRequest(Integer deviceSn) {}
