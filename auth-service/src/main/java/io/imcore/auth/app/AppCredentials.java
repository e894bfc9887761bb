package io.imcore.auth.app;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** An app and its current admin token: the answer of {@code /app/create} and {@code /app/admin_token}. */
@RegisterForReflection
public record AppCredentials(String appId, String adminToken) {}
