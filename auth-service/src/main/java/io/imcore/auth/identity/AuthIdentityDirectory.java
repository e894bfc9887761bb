package io.imcore.auth.identity;

import io.imcore.auth.app.AppStore;
import io.imcore.auth.user.UserStore;
import io.imcore.common.context.IdentityDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.Optional;
import java.util.OptionalInt;

/** auth-service owns apps and users, so it checks tokens against its own tables: revocation takes effect at once. */
@ApplicationScoped
public class AuthIdentityDirectory implements IdentityDirectory {

    private final AppStore apps;
    private final UserStore users;

    public AuthIdentityDirectory(AppStore apps, UserStore users) {
        this.apps = apps;
        this.users = users;
    }

    @Override
    @Transactional
    public OptionalInt adminTokenVersion(String appId) {
        return apps.adminTokenVersion(appId);
    }

    /**
     * Runs before every call with a user token: one select in no transaction of its own (docs/benchmarks.md, "What
     * the ORM's reads cost"), and the two columns rather than the entity, so the request's session caches no user
     * that a later read in the same request would get as it was here.
     */
    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<UserState> user(String appId, long userId) {
        return users.state(appId, userId);
    }
}
