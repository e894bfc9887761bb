package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The answer of {@code POST /user/register/v2}. */
@RegisterForReflection
public record RegisteredUser(long userId, String username, String mobile, String email) {}
