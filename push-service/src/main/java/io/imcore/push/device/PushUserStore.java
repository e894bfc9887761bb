package io.imcore.push.device;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Per-user push settings: the opt-out ({@code push_users}) and the user's tags ({@code push_user_tags}). */
@ApplicationScoped
public class PushUserStore {

    public boolean pushDisabled(Connection c, String appId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select push_disabled from push_users where app_id = ? and user_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    public void setPushDisabled(Connection c, String appId, long userId, boolean disabled) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_users (app_id, user_id, push_disabled)"
                + " values (?, ?, ?) on conflict (app_id, user_id) do update set push_disabled = excluded.push_disabled")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setBoolean(3, disabled);
            ps.executeUpdate();
        }
    }

    /** The user's tags in code-point order. */
    public List<String> tags(Connection c, String appId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select tag from push_user_tags"
                + " where app_id = ? and user_id = ? order by tag collate \"C\"")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            List<String> tags = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tags.add(rs.getString(1));
                }
            }
            return tags;
        }
    }

    /** Serialises the changes of one user's tags, so that two concurrent adds cannot pass the limit together. */
    public void lockTags(Connection c, String appId, long userId) throws SQLException {
        TransactionLock.acquire(c, "push_user_tags:" + appId + ":" + userId);
    }

    /** Adds the tags (those the user has already stay as they are); returns how many tags the user has now. */
    public int addTags(Connection c, String appId, long userId, List<String> tags) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_user_tags (app_id, tag, user_id)"
                + " select ?, t, ? from unnest(?) as t on conflict do nothing")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setArray(3, c.createArrayOf("text", tags.toArray()));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(
                "select count(*) from push_user_tags where app_id = ? and user_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    public void removeTags(Connection c, String appId, long userId, List<String> tags) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "delete from push_user_tags where app_id = ? and user_id = ? and tag = any(?)")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setArray(3, c.createArrayOf("text", tags.toArray()));
            ps.executeUpdate();
        }
    }
}
