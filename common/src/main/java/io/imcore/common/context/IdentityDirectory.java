package io.imcore.common.context;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the request filter needs to know about apps and users to check a token for revocation.
 * auth-service answers from its own tables; other services from the view they keep of auth-service's events.
 */
public interface IdentityDirectory {

    /** The app's current admin-token version, or empty when the app does not exist. */
    OptionalInt adminTokenVersion(String appId);

    /** The user's current token version and state, or empty when the user does not exist. */
    Optional<UserState> user(String appId, long userId);

    /** The states of those of the users that exist. */
    default Map<Long, UserState> users(String appId, Collection<Long> userIds) {
        Map<Long, UserState> found = new LinkedHashMap<>();
        for (long id : userIds) {
            user(appId, id).ifPresent(state -> found.put(id, state));
        }
        return found;
    }

    record UserState(int tokenVersion, boolean disabled) {}
}
