package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * One provider token bound to a device of the user ({@code GET /user/token/list}, snake_case JSON); the token itself
 * is masked and bound_at is in epoch milliseconds.
 */
@RegisterForReflection
public record BoundToken(int deviceSn, String notifierName, String channel, String deviceTokenMasked, long boundAt) {}
