package io.imcore.message.group;

import io.imcore.common.store.Database;
import io.imcore.message.conversation.GroupConversations;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The groups and their members (the rows of each group's conversation): the Panache repository of {@link Group}
 * and {@link GroupMembership} for group management, and the plain SQL of the send path and the conversation pages
 * (docs/architecture.md), which runs on the caller's connection and transaction, beside SendStore's statements.
 */
@ApplicationScoped
public class GroupStore implements PanacheRepositoryBase<Group, Group.Key>, GroupConversations {

    private final Database database;

    public GroupStore(Database database) {
        this.database = database;
    }

    /**
     * Group ids come from their own sequence, from 10^12 up (users and groups share one id space). Plain JDBC in the
     * caller's transaction: Hibernate 7.4's plan cache never finds a native query with a result class again, so each
     * call added one more entry and walked all the others.
     */
    public long nextGroupId() {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("select nextval('group_ids')");
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    public Optional<Group> find(String appId, long groupId) {
        return find("appId = ?1 and groupId = ?2", appId, groupId).firstResultOptional();
    }

    /** Like {@link #find} but locks the group row: membership changes of one group run one at a time. */
    public Optional<Group> lock(String appId, long groupId) {
        return find("appId = ?1 and groupId = ?2", appId, groupId)
                .withLock(LockModeType.PESSIMISTIC_WRITE).firstResultOptional();
    }

    /** Reads the group's owner and member count again (they are formulas over the member rows). */
    public void refresh(Group group) {
        getSession().refresh(group);
    }

    /** The live groups the user is a member of, most recently joined first (index conversation_members_by_user). */
    public List<Group> joined(String appId, long userId) {
        return find("select g from Group g join GroupMembership m on m.conversationId = g.conversationId"
                + " where m.appId = ?2 and m.userId = ?1 and g.appId = ?2 and g.destroyedAt is null"
                + " order by m.joinedAt desc, g.groupId desc", userId, appId).list();
    }

    /** The members, the owner first, then the admins, then the others, each by joining time. */
    public List<GroupMembership> members(long conversationId) {
        return getSession().createSelectionQuery("from GroupMembership where conversationId = ?1"
                + " order by case role when " + GroupMembership.ROLE_OWNER + " then 0 when "
                + GroupMembership.ROLE_ADMIN + " then 1 else 2 end, joinedAt, userId", GroupMembership.class)
                .setParameter(1, conversationId).getResultList();
    }

    public List<Long> memberIds(long conversationId) {
        return getSession().createSelectionQuery("select userId from GroupMembership where conversationId = ?1",
                Long.class).setParameter(1, conversationId).getResultList();
    }

    public boolean isMember(long conversationId, long userId) {
        return membership(conversationId, userId).isPresent();
    }

    public Optional<GroupMembership> membership(long conversationId, long userId) {
        return getSession().createSelectionQuery("from GroupMembership where conversationId = ?1 and userId = ?2",
                GroupMembership.class).setParameter(1, conversationId).setParameter(2, userId)
                .getResultStream().findFirst();
    }

    /** The users' memberships (those who are members). */
    public List<GroupMembership> memberships(long conversationId, Collection<Long> userIds) {
        return getSession().createSelectionQuery("from GroupMembership where conversationId = ?1 and userId in ?2",
                GroupMembership.class).setParameter(1, conversationId).setParameter(2, userIds).getResultList();
    }

    /** Removes the users' member rows; returns how many were members. */
    public long removeMembers(long conversationId, Collection<Long> userIds) {
        return getSession().createMutationQuery("delete from GroupMembership where conversationId = ?1 and userId in ?2")
                .setParameter(1, conversationId).setParameter(2, userIds).executeUpdate();
    }

    public long removeAllMembers(long conversationId) {
        return getSession().createMutationQuery("delete from GroupMembership where conversationId = ?1")
                .setParameter(1, conversationId).executeUpdate();
    }

    /**
     * Makes the longest-standing admin, else the longest-standing member, the owner (after the owner left); nothing
     * when no member is left.
     */
    public void promoteOldestMember(long conversationId) {
        getSession().createSelectionQuery("from GroupMembership where conversationId = ?1 order by case role when "
                        + GroupMembership.ROLE_ADMIN + " then 0 else 1 end, joinedAt, userId",
                        GroupMembership.class)
                .setParameter(1, conversationId).setMaxResults(1).getResultList().stream().findFirst()
                .ifPresent(oldest -> oldest.role = GroupMembership.ROLE_OWNER);
    }

    /** The send path's and the conversation pages' look-up of a group (one indexed read). */
    @Override
    public OptionalLong liveConversation(Connection c, String appId, long groupId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select conversation_id, destroyed_at is not null from groups"
                + " where app_id = ? and group_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, groupId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && !rs.getBoolean(2) ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** A send to check: its group, and the user who must be a member of it (0: anyone may send, say an admin). */
    public interface SenderCheck {
        String appId();

        long groupId();

        long memberId();
    }

    /** What a send's check found: the group's conversation (0 and not found when there is no such group). */
    public record SenderChecked(boolean found, long conversationId, boolean destroyed, boolean member,
            boolean muted) {}

    /** A plain member is muted until its time, or while the whole group is; the owner and admins never are. */
    private static final String MUTED = "(cm.muted_until > now() or (g.muted_all and cm.role = "
            + GroupMembership.ROLE_MEMBER + "))";

    /**
     * Checks the sends in one statement, answering in their order: the group, and for a {@code memberId} its member
     * row (and whether it is muted), locked FOR KEY SHARE until the transaction ends. Removing a member deletes that row, which waits for the
     * lock, and a row deleted by a removal that committed while this waited is not found: a member removed before
     * the transaction commits is never counted as one. Pass the checks sorted by group and member, so that two
     * transactions lock one group's member rows in one order.
     */
    public List<SenderChecked> checkSenders(Connection c, List<? extends SenderCheck> checks) throws SQLException {
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
                + " m.user_id is not null, coalesce(m.muted, false)"
                + " from unnest(?::text[], ?::bigint[], ?::bigint[]) with ordinality"
                + " as t(app_id, group_id, member_id, ord) left join groups g on g.app_id = t.app_id"
                + " and g.group_id = t.group_id left join lateral (select cm.user_id, " + MUTED + " as muted from conversation_members cm"
                + " where cm.conversation_id = g.conversation_id and cm.user_id = t.member_id for key share) m on true"
                + " order by t.ord")) {
            ps.setArray(1, c.createArrayOf("text", apps));
            ps.setArray(2, c.createArrayOf("bigint", groups));
            ps.setArray(3, c.createArrayOf("bigint", members));
            List<SenderChecked> checked = new ArrayList<>(n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long conversation = rs.getLong(1);
                    checked.add(rs.wasNull() ? new SenderChecked(false, 0, false, false, false)
                            : new SenderChecked(true, conversation, rs.getBoolean(2), rs.getBoolean(3),
                                    rs.getBoolean(4)));
                }
            }
            if (checked.size() != n) {
                throw new IllegalStateException(n + " sends to check, " + checked.size() + " checked");
            }
            return checked;
        }
    }

    /** Whether the member may not send now (the sends to several groups at once, SendService). */
    /** A group message as its receipts need it. */
    public record SentMessage(long seq, long senderId, long createdMs) {}

    public Optional<SentMessage> sentMessage(Connection c, long conversationId, long msgId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select seq, sender_id, created_ms from messages"
                + " where conversation_id = ? and msg_id = ?")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, msgId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new SentMessage(rs.getLong(1), rs.getLong(2), rs.getLong(3)))
                        : Optional.empty();
            }
        }
    }

    /**
     * Who a message's receipts count: the members of its conversation but its sender, who were in the group when it
     * was sent; read when their read position reached its seq. Parameters: seq, conversation, sender, sent (ms).
     * Through the primary key (conversation_id, user_id): no row per member and message.
     */
    private static final String RECEIPT_READERS = " from conversation_members where conversation_id = ?"
            + " and user_id <> ? and joined_at <= to_timestamp(? / 1000.0)";
    public static final String RECEIPT_COUNTS = "select count(*) filter (where read_seq >= ?),"
            + " count(*) filter (where read_seq < ?)" + RECEIPT_READERS;
    /** The page: after a user id, by user id; parameters as above, then the user id and the limit. */
    public static final String RECEIPT_PAGE = "select user_id, read_seq >= ?" + RECEIPT_READERS
            + " and user_id > ? order by user_id limit ?";

    public ReceiptPage receipts(Connection c, long conversationId, SentMessage message, long afterUserId, int limit)
            throws SQLException {
        long read;
        long unread;
        try (PreparedStatement ps = c.prepareStatement(RECEIPT_COUNTS)) {
            ps.setLong(1, message.seq());
            ps.setLong(2, message.seq());
            ps.setLong(3, conversationId);
            ps.setLong(4, message.senderId());
            ps.setLong(5, message.createdMs());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                read = rs.getLong(1);
                unread = rs.getLong(2);
            }
        }
        List<Long> readUsers = new ArrayList<>();
        List<Long> unreadUsers = new ArrayList<>();
        long last = 0;
        int rows = 0;
        try (PreparedStatement ps = c.prepareStatement(RECEIPT_PAGE)) {
            ps.setLong(1, message.seq());
            ps.setLong(2, conversationId);
            ps.setLong(3, message.senderId());
            ps.setLong(4, message.createdMs());
            ps.setLong(5, afterUserId);
            ps.setInt(6, limit + 1);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next() && rows++ < limit) {
                    last = rs.getLong(1);
                    (rs.getBoolean(2) ? readUsers : unreadUsers).add(last);
                }
            }
        }
        return new ReceiptPage(read, unread, readUsers, unreadUsers, rows > limit ? last : null);
    }

    /**
     * The senders of the last {@code limit} messages up to {@code msgId} (msg_ids grow with seq in a conversation),
     * by the primary key: whom a member's read receipt concerns.
     */
    public List<Long> sendersUpTo(Connection c, long conversationId, long msgId, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select distinct sender_id from (select sender_id from messages"
                + " where conversation_id = ? and msg_id <= ? order by msg_id desc limit ?) t")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, msgId);
            ps.setInt(3, limit);
            List<Long> senders = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    senders.add(rs.getLong(1));
                }
            }
            return senders;
        }
    }
}
