package io.imcore.auth.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import io.imcore.auth.api.Dtos.AppSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

@ApplicationScoped
public class AppStore {

    public void insert(Connection c, String appId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into apps (app_id, name) values (?, ?)")) {
            ps.setString(1, appId);
            ps.setString(2, name);
            ps.executeUpdate();
        }
    }

    public OptionalInt adminTokenVersion(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select admin_token_version from apps where app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    /** Moves the admin-token version on, which revokes every admin token issued before. */
    public OptionalInt rotateAdminToken(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update apps set admin_token_version = admin_token_version + 1 where app_id = ? returning admin_token_version")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    /** Every app, oldest first (an operator runs a handful of apps, so the list is not paged). */
    public List<AppSummary> list(Connection c) throws SQLException {
        List<AppSummary> list = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select app_id, name, admin_token_version, created_at from apps order by created_at, app_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                list.add(new AppSummary(rs.getString(1), rs.getString(2), rs.getInt(3),
                        rs.getTimestamp(4).toInstant().toEpochMilli()));
            }
        }
        return list;
    }
}
