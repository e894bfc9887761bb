package io.imcore.auth.app;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One row of {@code GET /app/list}: what the apps table holds, created_at in epoch milliseconds. */
@RegisterForReflection
public record AppSummary(String appId, String name, int adminTokenVersion, long createdAt) {}
