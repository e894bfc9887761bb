package io.imcore.message.offlinepush;

import io.imcore.common.store.Database;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * The recipients' unread counts for the badges of their notifications (docs/offline-push.md "The badge"), one row
 * per user in {@code unread_counts} (migration V6_1), written only by the publisher's pass (which holds the publisher
 * lock): a notification's badge costs one row, not a sum over all the recipient's conversations, which grew with
 * them (16.8 ms per pass at up to 1,003 conversations per recipient, docs/benchmarks.md).
 * <p>
 * A user's row starts as the sum GET /message/unread shows, less the messages still queued for announcement to them,
 * all read in one statement (one snapshot); each announcement adds one. Reads reach it through
 * {@code unread_changes}, which the members' rows' trigger fills in the reading transaction, so a read committed after
 * that snapshot is applied at the next pass and one committed before it is already in the sum. A moved floor or an
 * ended membership has the row taken again at the user's next notification.
 */
final class UnreadCounts {

    private UnreadCounts() {}

    /**
     * Whether the counts are kept (offline push on): switching them on forgets rows that missed what happened while
     * off; switched off, the trigger writes nothing. Every replica must be configured alike.
     */
    static void keep(Connection c, boolean counting) throws SQLException {
        try (Statement s = c.createStatement()) {
            int switched = s.executeUpdate("update unread_counting set counting = " + counting
                    + " where counting <> " + counting);
            if (switched > 0 && counting) {
                s.executeUpdate("delete from unread_counts");
            }
            if (switched > 0) {
                s.executeUpdate("delete from unread_changes");
            }
        }
    }

    /**
     * A recalled message (at {@code seq}) leaves the counts of the members who had not read it, through
     * {@code unread_changes} like a read, in the recalling transaction. Their rows are locked first, so a read
     * committing meanwhile is seen here (and counted by its trigger), and a later read's trigger sees the recall and
     * leaves the message out: it is never taken off twice.
     */
    static void recalled(Connection c, long conversationId, long seq, long senderId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into unread_changes (app_id, user_id, read)"
                + " select m.app_id, m.user_id, 1 from (select app_id, user_id from conversation_members"
                + " where conversation_id = ? and user_id <> ? and greatest(read_seq, floor_seq) < ?"
                + " order by user_id for no key update) m where (select counting from unread_counting)")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, senderId);
            ps.setLong(3, seq);
            ps.executeUpdate();
        }
    }

    /** Applies the reads committed since the last pass, and forgets the rows to be taken again. */
    static void applyChanges(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("with e as (delete from unread_changes returning app_id, user_id, read),"
                    + " recount as (select distinct app_id, user_id from e where read is null),"
                    + " dropped as (delete from unread_counts u using recount r"
                    + " where u.app_id = r.app_id and u.user_id = r.user_id),"
                    + " reads as (select app_id, user_id, sum(read) as n from e where read is not null"
                    + " group by app_id, user_id)"
                    + " update unread_counts u set unread = u.unread - r.n from reads r"
                    + " where u.app_id = r.app_id and u.user_id = r.user_id"
                    + " and not exists (select 1 from recount x where x.app_id = r.app_id and x.user_id = r.user_id)");
        }
    }

    /**
     * The rows of these users that have none: each member row's unread messages (its conversation read by its primary
     * key, as a scalar subquery so the generic plan cannot hash the conversations table; recalled ones left out)
     * less the messages of that conversation still queued whose announcement will count for this member (the
     * publisher's recipient rule: not their own; in a group, after their floor); the changes already in that sum
     * dropped. Package-visible for the plan check ({@code PublisherPlansTest}).
     */
    static final String FIRST_COUNT = "with u(user_id) as (select * from unnest(?::bigint[])),"
            + " missing as (select u.user_id from u where not exists (select 1 from unread_counts k"
            + " where k.app_id = ? and k.user_id = u.user_id)),"
            + " counted as (delete from unread_changes e using missing x where e.app_id = ? and e.user_id = x.user_id)"
            + " insert into unread_counts (app_id, user_id, unread) select ?, x.user_id, coalesce((select sum("
            + " greatest((select v.last_seq from conversations v where v.id = m.conversation_id)"
            + " - greatest(m.read_seq, m.floor_seq), 0) - " + ConversationStore.RECALLED_UNREAD
            + " - (select count(*) from offline_push_queue q join messages g on g.conversation_id = q.conversation_id"
            + " and g.msg_id = q.msg_id where q.conversation_id = m.conversation_id and q.stage = 0"
            + " and g.sender_id <> m.user_id and (m.floor_seq < g.seq or (select v.kind from conversations v"
            + " where v.id = m.conversation_id) <> " + ConversationKind.GROUP.code + ")))"
            + " from conversation_members m where m.app_id = ? and m.user_id = x.user_id), 0)"
            + " from missing x on conflict (app_id, user_id) do nothing";

    /**
     * Counts this pass's announcements ({@code announced}: recipient to the number of its messages), creating the rows
     * of first-time recipients; answers each recipient's unread count after them. The rows that exist are added to
     * first, and only the recipients the update did not find are counted: a pass whose recipients all have a row (a
     * group message's members, nearly always) no longer looks each of them up for a missing one.
     */
    static Map<Long, Long> announce(Connection c, String appId, Map<Long, Long> announced) throws SQLException {
        Map<Long, Long> unread = add(c, appId, announced);
        if (unread.size() < announced.size()) {
            Map<Long, Long> first = new HashMap<>();
            announced.forEach((user, n) -> {
                if (!unread.containsKey(user)) {
                    first.put(user, n);
                }
            });
            try (PreparedStatement ps = c.prepareStatement(FIRST_COUNT)) {
                ps.setArray(1, Database.bigints(c, first.keySet().stream().mapToLong(Long::longValue).toArray()));
                ps.setString(2, appId);
                ps.setString(3, appId);
                ps.setString(4, appId);
                ps.setString(5, appId);
                ps.executeUpdate();
            }
            unread.putAll(add(c, appId, first));
        }
        return unread;
    }

    /** Adds to the users' rows that exist; answers their counts after it. */
    private static Map<Long, Long> add(Connection c, String appId, Map<Long, Long> announced) throws SQLException {
        long[] users = new long[announced.size()];
        long[] counts = new long[announced.size()];
        int i = 0;
        for (Map.Entry<Long, Long> entry : announced.entrySet()) {
            users[i] = entry.getKey();
            counts[i++] = entry.getValue();
        }
        Map<Long, Long> unread = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("update unread_counts u set unread = u.unread + t.n"
                + " from unnest(?::bigint[], ?::bigint[]) as t(user_id, n) where u.app_id = ? and u.user_id = t.user_id"
                + " returning u.user_id, u.unread")) {
            ps.setArray(1, Database.bigints(c, users));
            ps.setArray(2, Database.bigints(c, counts));
            ps.setString(3, appId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    unread.put(rs.getLong(1), rs.getLong(2));
                }
            }
        }
        return unread;
    }
}
