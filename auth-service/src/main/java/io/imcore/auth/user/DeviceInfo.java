package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A device of the caller, as {@code GET /user/device/list} lists it; times in epoch milliseconds. */
@RegisterForReflection
public record DeviceInfo(int deviceSn, String deviceGuid, String pushToken, long createdAt, long lastSeenAt) {}
