package io.imcore.message.group;

import io.imcore.message.conversation.GroupConversations;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The group lookup of the send path and the conversation pages, on their own connection and transaction (plain
 * SQL: docs/architecture.md). Group management uses the {@link Group} entity.
 */
@ApplicationScoped
public class GroupStore implements GroupConversations {

    @Override
    public OptionalLong liveConversation(Connection c, String appId, long groupId) throws SQLException {
        Optional<GroupRow> group = find(c, appId, groupId);
        return group.isEmpty() || group.get().destroyed() ? OptionalLong.empty()
                : OptionalLong.of(group.get().conversationId());
    }

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

    /** A send to check: its group, and the user who must be a member of it (0: anyone may send, say an admin). */
    public record SenderCheck(String appId, long groupId, long memberId) {}

    /** What a send's check found: the group's conversation (0 and not found when there is no such group). */
    public record SenderChecked(boolean found, long conversationId, boolean destroyed, boolean member) {}

    /**
     * Checks the sends in one statement, answering in their order: the group, and for a {@code memberId} its member
     * row, locked FOR KEY SHARE until the transaction ends. Removing a member deletes that row, which waits for the
     * lock, and a row deleted by a removal that committed while this waited is not found: a member removed before
     * the transaction commits is never counted as one. Pass the checks sorted by group and member, so that two
     * transactions lock one group's member rows in one order.
     */
    public List<SenderChecked> checkSenders(Connection c, List<SenderCheck> checks) throws SQLException {
        int n = checks.size();
        String[] apps = new String[n];
        Long[] groups = new Long[n];
        Long[] members = new Long[n];
        for (int i = 0; i < n; i++) {
            apps[i] = checks.get(i).appId();
            groups[i] = checks.get(i).groupId();
            members[i] = checks.get(i).memberId();
        }
        try (PreparedStatement ps = c.prepareStatement("select g.conversation_id, g.destroyed_at is not null,"
                + " m.user_id is not null from unnest(?::text[], ?::bigint[], ?::bigint[]) with ordinality"
                + " as t(app_id, group_id, member_id, ord) left join groups g on g.app_id = t.app_id"
                + " and g.group_id = t.group_id left join lateral (select cm.user_id from conversation_members cm"
                + " where cm.conversation_id = g.conversation_id and cm.user_id = t.member_id for key share) m on true"
                + " order by t.ord")) {
            ps.setArray(1, c.createArrayOf("text", apps));
            ps.setArray(2, c.createArrayOf("bigint", groups));
            ps.setArray(3, c.createArrayOf("bigint", members));
            List<SenderChecked> checked = new ArrayList<>(n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long conversation = rs.getLong(1);
                    checked.add(rs.wasNull() ? new SenderChecked(false, 0, false, false)
                            : new SenderChecked(true, conversation, rs.getBoolean(2), rs.getBoolean(3)));
                }
            }
            if (checked.size() != n) {
                throw new IllegalStateException(n + " sends to check, " + checked.size() + " checked");
            }
            return checked;
        }
    }
}
