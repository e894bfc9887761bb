package io.imcore.auth.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class UserStore {

    private static final String COLUMNS =
            "user_id, app_id, username, mobile, email, password_hash, token_version, disabled";

    /** Login names a user can be found by; user names and e-mails compare without regard to case. */
    public enum LoginField {
        USERNAME("lower(username) = lower(?)"),
        MOBILE("mobile = ?"),
        EMAIL("lower(email) = lower(?)");

        private final String condition;

        LoginField(String condition) {
            this.condition = condition;
        }
    }

    /** Inserts a user; a taken user name, mobile or e-mail surfaces as a unique violation naming the index. */
    public long insert(Connection c, String appId, String username, String mobile, String email, String passwordHash)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "insert into users (app_id, username, mobile, email, password_hash) values (?, ?, ?, ?, ?) returning user_id")) {
            ps.setString(1, appId);
            ps.setString(2, username);
            ps.setString(3, mobile);
            ps.setString(4, email);
            ps.setString(5, passwordHash);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public Optional<UserRow> findById(Connection c, String appId, long userId) throws SQLException {
        return findOne(c, "select " + COLUMNS + " from users where app_id = ? and user_id = ?", appId, userId);
    }

    public Optional<UserRow> findByLogin(Connection c, String appId, LoginField field, String value) throws SQLException {
        return findOne(c, "select " + COLUMNS + " from users where app_id = ? and " + field.condition, appId, value);
    }

    /** Locks the user row for the rest of the transaction (device registration serialises on it). */
    public void lock(Connection c, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select 1 from users where user_id = ? for update")) {
            ps.setLong(1, userId);
            ps.executeQuery().close();
        }
    }

    /** Existing ids of the app among the given ones. */
    public List<Long> existing(Connection c, String appId, Collection<Long> userIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select user_id from users where app_id = ? and user_id = any(?) order by user_id")) {
            ps.setString(1, appId);
            ps.setArray(2, longArray(c, userIds));
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        }
    }

    /** The app's users among the given ids. */
    public List<UserRow> findByIds(Connection c, String appId, Collection<Long> userIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select " + COLUMNS + " from users where app_id = ? and user_id = any(?) order by user_id")) {
            ps.setString(1, appId);
            ps.setArray(2, longArray(c, userIds));
            List<UserRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
            return rows;
        }
    }

    /** Sets the disabled flag and returns the changed users with their token versions. */
    public List<UserRow> setDisabled(Connection c, String appId, Collection<Long> userIds, boolean disabled)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update users set disabled = ? where app_id = ? and user_id = any(?)"
                + " and disabled <> ? returning " + COLUMNS)) {
            ps.setBoolean(1, disabled);
            ps.setString(2, appId);
            ps.setArray(3, longArray(c, userIds));
            ps.setBoolean(4, disabled);
            List<UserRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
            return rows;
        }
    }

    /** Stores a new hash and moves the token version on, which revokes every token issued before. */
    public int changePassword(Connection c, long userId, String passwordHash) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update users set password_hash = ?, token_version = token_version + 1"
                + " where user_id = ? returning token_version")) {
            ps.setString(1, passwordHash);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Hands out the next device_sn of the user; the caller holds the user row lock. */
    public int nextDeviceSn(Connection c, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update users set next_device_sn = next_device_sn + 1 where user_id = ? returning next_device_sn - 1")) {
            ps.setLong(1, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private Optional<UserRow> findOne(Connection c, String sql, String appId, Object key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, appId);
            ps.setObject(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    private static UserRow row(ResultSet rs) throws SQLException {
        return new UserRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getInt(7), rs.getBoolean(8));
    }

    private static Array longArray(Connection c, Collection<Long> ids) throws SQLException {
        return c.createArrayOf("bigint", ids.toArray());
    }
}
