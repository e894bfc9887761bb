package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of {@code POST/PUT /user/token/bind} (snake_case JSON; docs/push-devices.md). */
@RegisterForReflection
public record BindRequest(Integer deviceSn, String deviceToken, String notifierName) {}
