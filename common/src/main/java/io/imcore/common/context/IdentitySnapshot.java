package io.imcore.common.context;

import java.util.List;

/**
 * auth-service's current answer about an app and some of its users ({@code GET /internal/identity}): what the
 * other services' auth view falls back to for an app or user whose event has not reached them yet.
 */
public record IdentitySnapshot(Integer adminTokenVersion, List<User> users) {

    public record User(long userId, int tokenVersion, boolean disabled) {}
}
