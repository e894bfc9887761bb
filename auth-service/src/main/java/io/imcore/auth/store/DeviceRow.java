package io.imcore.auth.store;

import java.time.Instant;

public record DeviceRow(int deviceSn, String deviceGuid, String pushToken, Instant createdAt, Instant lastSeenAt) {}
