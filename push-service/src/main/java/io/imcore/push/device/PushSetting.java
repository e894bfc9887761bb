package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** data of {@code GET /user/push}: the user's opt-out, true = no pushes to any of the user's devices. */
@RegisterForReflection
public record PushSetting(boolean pushDisabled) {}
