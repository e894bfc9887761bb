package io.imcore.message.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
}
