package io.imcore.common.context;

import io.imcore.common.store.Database;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Token checks of the services other than auth-service: against the auth view that {@code AuthViewUpdater} keeps
 * from auth-service's events. auth-service replaces it with its own tables.
 */
@DefaultBean
@ApplicationScoped
public class AuthViewDirectory implements IdentityDirectory {

    private final Database database;

    public AuthViewDirectory(Database database) {
        this.database = database;
    }

    @Override
    public OptionalInt adminTokenVersion(String appId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select admin_token_version from auth_view_apps where app_id = ?")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
                }
            }
        });
    }

    @Override
    public Optional<UserState> user(String appId, long userId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select token_version, disabled from auth_view_users where app_id = ? and user_id = ?")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(new UserState(rs.getInt(1), rs.getBoolean(2))) : Optional.empty();
                }
            }
        });
    }
}
