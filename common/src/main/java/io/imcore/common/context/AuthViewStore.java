package io.imcore.common.context;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Writes to the auth view ({@code auth_view_apps}, {@code auth_view_users}). Versions never move backwards, so
 * events replayed from Kafka and answers fetched from auth-service can arrive in any order.
 */
public final class AuthViewStore {

    private AuthViewStore() {
    }

    public static void upsertApp(Connection c, String appId, int adminTokenVersion) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into auth_view_apps (app_id, admin_token_version)"
                + " values (?, ?) on conflict (app_id) do update set admin_token_version ="
                + " greatest(auth_view_apps.admin_token_version, excluded.admin_token_version)")) {
            ps.setString(1, appId);
            ps.setInt(2, adminTokenVersion);
            ps.executeUpdate();
        }
    }

    public static void upsertUser(Connection c, String appId, long userId, int tokenVersion, boolean disabled)
            throws SQLException {
        // credentials_changed_at marks the moment tokens died here (version moved on, or disabled): live
        // connections authenticated before it are closed by message-service (LiveRevocations)
        try (PreparedStatement ps = c.prepareStatement("insert into auth_view_users (app_id, user_id, token_version,"
                + " disabled, credentials_changed_at) values (?, ?, ?, ?, case when ? then now() end)"
                + " on conflict (app_id, user_id) do update set token_version = excluded.token_version,"
                + " disabled = excluded.disabled, credentials_changed_at = case"
                + " when excluded.token_version > auth_view_users.token_version"
                + " or (excluded.disabled and not auth_view_users.disabled) then now()"
                + " else auth_view_users.credentials_changed_at end"
                + " where auth_view_users.token_version <= excluded.token_version")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, tokenVersion);
            ps.setBoolean(4, disabled);
            ps.setBoolean(5, disabled);
            ps.executeUpdate();
        }
    }
}
