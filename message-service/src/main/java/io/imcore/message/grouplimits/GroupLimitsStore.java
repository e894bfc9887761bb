package io.imcore.message.grouplimits;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The apps' group limits (table app_group_limits): one row per app that set them. */
final class GroupLimitsStore {

    private GroupLimitsStore() {}

    static Optional<GroupLimits> find(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select receipt_frames_max_members, typing_max_members"
                + " from app_group_limits where app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new GroupLimits(rs.getInt(1), rs.getInt(2))) : Optional.empty();
            }
        }
    }

    static void save(Connection c, String appId, GroupLimits limits) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into app_group_limits (app_id,"
                + " receipt_frames_max_members, typing_max_members, updated_at) values (?, ?, ?, now())"
                + " on conflict (app_id) do update set receipt_frames_max_members = excluded.receipt_frames_max_members,"
                + " typing_max_members = excluded.typing_max_members, updated_at = excluded.updated_at")) {
            ps.setString(1, appId);
            ps.setInt(2, limits.receiptFramesMaxMembers());
            ps.setInt(3, limits.typingMaxMembers());
            ps.executeUpdate();
        }
    }
}
