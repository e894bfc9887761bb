package io.imcore.auth.store;

import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.OptionalInt;

/** auth-service owns apps and users, so it checks tokens against its own tables: revocation takes effect at once. */
@ApplicationScoped
public class AuthIdentityDirectory implements IdentityDirectory {

    private final Database database;
    private final AppStore apps;
    private final UserStore users;

    public AuthIdentityDirectory(Database database, AppStore apps, UserStore users) {
        this.database = database;
        this.apps = apps;
        this.users = users;
    }

    @Override
    public OptionalInt adminTokenVersion(String appId) {
        return database.read(c -> apps.adminTokenVersion(c, appId));
    }

    @Override
    public Optional<UserState> user(String appId, long userId) {
        return database.read(c -> users.findById(c, appId, userId))
                .map(u -> new UserState(u.tokenVersion(), u.disabled()));
    }
}
