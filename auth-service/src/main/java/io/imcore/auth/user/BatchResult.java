package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The outcome of one entry of {@code POST /user/register/batch}. */
@RegisterForReflection
public record BatchResult(Long userId, String username, boolean success, String reason) {}
