package io.imcore.message.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The group lookup of the send path and the conversation pages, on their own connection and transaction (plain
 * SQL: docs/architecture.md). Group management uses the {@link Group} entity.
 */
@ApplicationScoped
public class GroupStore {

    public Optional<GroupRow> find(Connection c, String appId, long groupId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select conversation_id, destroyed_at is not null from groups"
                + " where app_id = ? and group_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, groupId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new GroupRow(groupId, rs.getLong(1), rs.getBoolean(2)))
                        : Optional.empty();
            }
        }
    }

    /** A group named by its app and id. */
    public record GroupKey(String appId, long groupId) {}

    /**
     * Those of {@code keys} (distinct, in any order) that exist, each row locked FOR SHARE until the transaction
     * ends, in key order. Group management locks the row FOR UPDATE before it changes the members
     * (GroupRepository.lock), so a membership read after this in the same transaction stays true until its commit.
     */
    public Map<GroupKey, GroupRow> lockForSend(Connection c, List<GroupKey> keys) throws SQLException {
        String[] apps = new String[keys.size()];
        Long[] ids = new Long[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            apps[i] = keys.get(i).appId();
            ids[i] = keys.get(i).groupId();
        }
        try (PreparedStatement ps = c.prepareStatement("select g.app_id, g.group_id, g.conversation_id,"
                + " g.destroyed_at is not null from groups g join unnest(?::text[], ?::bigint[]) as t(app_id, group_id)"
                + " on g.app_id = t.app_id and g.group_id = t.group_id order by g.app_id, g.group_id for share of g")) {
            ps.setArray(1, c.createArrayOf("text", apps));
            ps.setArray(2, c.createArrayOf("bigint", ids));
            Map<GroupKey, GroupRow> found = new HashMap<>(keys.size() * 2);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.put(new GroupKey(rs.getString(1), rs.getLong(2)),
                            new GroupRow(rs.getLong(2), rs.getLong(3), rs.getBoolean(4)));
                }
            }
            return found;
        }
    }
}
