package io.imcore.auth.store;

public record UserRow(long userId, String appId, String username, String mobile, String email, String passwordHash,
        int tokenVersion, boolean disabled) {}
