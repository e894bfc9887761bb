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
public class AuthTablesDirectory implements IdentityDirectory {

    private final AppStore apps;
    private final UserStore users;

    public AuthTablesDirectory(AppStore apps, UserStore users) {
        this.apps = apps;
        this.users = users;
    }

    @Override
    @Transactional
    public OptionalInt adminTokenVersion(String appId) {
        return apps.adminTokenVersion(appId);
    }

    /** Runs before every call with a user token: one plain select with auto-commit (UserStore.state). */
    @Override
    public Optional<UserState> user(String appId, long userId) {
        return users.state(appId, userId);
    }
}
