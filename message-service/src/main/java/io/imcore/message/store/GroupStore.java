package io.imcore.message.store;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Groups; their members are the rows of the group conversation in {@code conversation_members}. */
@ApplicationScoped
public class GroupStore {

    public static final int ROLE_MEMBER = 0;
    public static final int ROLE_OWNER = 1;

    private static final String SELECT = "select g.group_id, g.conversation_id, g.name, g.description, g.avatar,"
            + " (select m.user_id from conversation_members m where m.conversation_id = g.conversation_id"
            + " and m.role = " + ROLE_OWNER + " limit 1),"
            + " (select count(*) from conversation_members m where m.conversation_id = g.conversation_id),"
            + " (extract(epoch from g.created_at) * 1000)::bigint, g.destroyed_at is not null from groups g";

    public record Membership(long userId, int role, long joinedAtMs) {}

    public long nextGroupId(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select nextval('group_ids')");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    public void insert(Connection c, String appId, long groupId, long conversationId, String name,
            String description, String avatar, Long createdBy) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into groups (app_id, group_id, conversation_id, name,"
                + " description, avatar, created_by) values (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, appId);
            ps.setLong(2, groupId);
            ps.setLong(3, conversationId);
            ps.setString(4, name);
            ps.setString(5, description);
            ps.setString(6, avatar);
            if (createdBy == null) {
                ps.setNull(7, Types.BIGINT);
            } else {
                ps.setLong(7, createdBy);
            }
            ps.executeUpdate();
        }
    }

    public Optional<GroupRow> find(Connection c, String appId, long groupId) throws SQLException {
        return one(c, SELECT + " where g.app_id = ? and g.group_id = ?", appId, groupId);
    }

    /** Like {@link #find} but locks the group row: membership changes of one group run one at a time. */
    public Optional<GroupRow> lock(Connection c, String appId, long groupId) throws SQLException {
        return one(c, SELECT + " where g.app_id = ? and g.group_id = ? for update of g", appId, groupId);
    }

    private static Optional<GroupRow> one(Connection c, String sql, String appId, long groupId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, appId);
            ps.setLong(2, groupId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** The live groups the user is a member of, most recently joined first. */
    public List<GroupRow> joined(Connection c, String appId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT + " join conversation_members j"
                + " on j.conversation_id = g.conversation_id and j.user_id = ?"
                + " where j.app_id = ? and g.app_id = ? and g.destroyed_at is null"
                + " order by j.joined_at desc, g.group_id desc")) {
            ps.setLong(1, userId);
            ps.setString(2, appId);
            ps.setString(3, appId);
            List<GroupRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
            return rows;
        }
    }

    public List<Membership> members(Connection c, long conversationId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select user_id, role,"
                + " (extract(epoch from joined_at) * 1000)::bigint from conversation_members"
                + " where conversation_id = ? order by role desc, joined_at, user_id")) {
            ps.setLong(1, conversationId);
            List<Membership> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Membership(rs.getLong(1), rs.getInt(2), rs.getLong(3)));
                }
            }
            return rows;
        }
    }

    public int removeMembers(Connection c, long conversationId, long[] userIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "delete from conversation_members where conversation_id = ? and user_id = any(?)")) {
            ps.setLong(1, conversationId);
            ps.setArray(2, Database.bigints(c, userIds));
            return ps.executeUpdate();
        }
    }

    /** Makes the longest-standing member the owner (after the owner left); nothing when no member is left. */
    public void promoteOldestMember(Connection c, long conversationId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update conversation_members set role = " + ROLE_OWNER
                + " where conversation_id = ? and user_id = (select user_id from conversation_members"
                + " where conversation_id = ? order by joined_at, user_id limit 1)")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, conversationId);
            ps.executeUpdate();
        }
    }

    /** A destroyed group keeps its row (its id is never reused) and loses its members. */
    public void destroy(Connection c, String appId, long groupId, long conversationId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "update groups set destroyed_at = now() where app_id = ? and group_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, groupId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("delete from conversation_members where conversation_id = ?")) {
            ps.setLong(1, conversationId);
            ps.executeUpdate();
        }
    }

    private static GroupRow row(ResultSet rs) throws SQLException {
        long owner = rs.getLong(6);
        Long ownerId = rs.wasNull() ? null : owner;
        return new GroupRow(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getString(5),
                ownerId, rs.getInt(7), rs.getLong(8), rs.getBoolean(9));
    }
}
