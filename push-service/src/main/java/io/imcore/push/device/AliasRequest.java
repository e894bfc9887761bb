package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of {@code POST /user/push/alias} (snake_case JSON; docs/push-devices.md). */
@RegisterForReflection
public record AliasRequest(String alias, String pushToken) {}
