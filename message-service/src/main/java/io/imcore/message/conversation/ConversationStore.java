package io.imcore.message.conversation;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Conversations and the members' positions in them (read, delivered, deleted-up-to). */
@ApplicationScoped
public class ConversationStore {

    /** A conversation's address: kind plus two ids (see the schema). */
    public record Key(ConversationKind kind, long lowId, long highId) {

        public static Key direct(long userA, long userB) {
            return new Key(ConversationKind.DIRECT, Math.min(userA, userB), Math.max(userA, userB));
        }

        public static Key group(long groupId) {
            return new Key(ConversationKind.GROUP, groupId, 0);
        }

        public static Key system(long userId) {
            return new Key(ConversationKind.SYSTEM, userId, 0);
        }
    }

    public record Member(long conversationId, long userId, long peerId, int role, long readSeq, long deliveredSeq,
            long floorSeq, long floorMsgId) {}

    /** Creates an empty conversation (a new group's) and returns its id. */
    public long create(Connection c, String appId, Key key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into conversations (app_id, kind, low_id, high_id)"
                + " values (?, ?, ?, ?) returning id")) {
            ps.setString(1, appId);
            ps.setShort(2, key.kind().code);
            ps.setLong(3, key.lowId());
            ps.setLong(4, key.highId());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Adds members at the conversation's current end: they see (and count as unread) only what comes after.
     * Existing members are left as they are. Returns how many were added.
     */
    public int addMembers(Connection c, long conversationId, String appId, long peerId, long[] userIds, int role)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "insert into conversation_members (conversation_id, user_id, app_id, peer_id, role, read_seq,"
                + " delivered_seq, floor_seq, floor_msg_id)"
                + " select c.id, u.user_id, ?, ?, ?, c.last_seq, c.last_seq, c.last_seq, c.last_msg_id"
                + " from conversations c, unnest(?::bigint[]) as u(user_id) where c.id = ?"
                + " on conflict (conversation_id, user_id) do nothing")) {
            ps.setString(1, appId);
            ps.setLong(2, peerId);
            ps.setInt(3, role);
            ps.setArray(4, Database.bigints(c, userIds));
            ps.setLong(5, conversationId);
            return ps.executeUpdate();
        }
    }

    /** A member's view of a conversation found by address: their row, and the peer's row when asked (direct). */
    public record MemberView(Member member, Optional<Member> peer) {}

    /** The viewer's (and optionally the peer's) row of the conversation at the address, in one query. */
    public Optional<MemberView> memberView(Connection c, String appId, Key key, long viewer, Long peerId)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + MEMBER_COLUMNS.replace("%", "m") + ", "
                + MEMBER_COLUMNS.replace("%", "p") + " from conversations c"
                + " join conversation_members m on m.conversation_id = c.id and m.user_id = ?"
                + " left join conversation_members p on p.conversation_id = c.id and p.user_id = ?"
                + " where c.app_id = ? and c.kind = ? and c.low_id = ? and c.high_id = ?")) {
            ps.setLong(1, viewer);
            ps.setLong(2, peerId == null ? -1 : peerId);
            ps.setString(3, appId);
            ps.setShort(4, key.kind().code);
            ps.setLong(5, key.lowId());
            ps.setLong(6, key.highId());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Member member = member(rs, 0);
                rs.getLong(9);
                Optional<Member> peer = rs.wasNull() ? Optional.empty() : Optional.of(member(rs, 8));
                return Optional.of(new MemberView(member, peer));
            }
        }
    }

    private static final String MEMBER_COLUMNS = "%.conversation_id, %.user_id, %.peer_id, %.role, %.read_seq,"
            + " %.delivered_seq, %.floor_seq, %.floor_msg_id";

    private static Member member(ResultSet rs, int offset) throws SQLException {
        return new Member(rs.getLong(offset + 1), rs.getLong(offset + 2), rs.getLong(offset + 3), rs.getInt(offset + 4),
                rs.getLong(offset + 5), rs.getLong(offset + 6), rs.getLong(offset + 7), rs.getLong(offset + 8));
    }

    public Optional<Member> member(Connection c, long conversationId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + MEMBER_COLUMNS.replace("%", "m")
                + " from conversation_members m where m.conversation_id = ? and m.user_id = ?")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(member(rs, 0)) : Optional.empty();
            }
        }
    }

    /**
     * Moves a member's read (and delivered) position up to the given messages' seq; never backwards. The user's
     * own message counts as read by them (SendStore does this in the send's statement; this is its fallback).
     */
    public void markRead(Connection c, long userId, long[] conversationIds, long[] seqs) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update conversation_members m set"
                + " read_seq = greatest(m.read_seq, t.seq), delivered_seq = greatest(m.delivered_seq, t.seq)"
                + " from unnest(?::bigint[], ?::bigint[]) as t(cid, seq)"
                + " where m.conversation_id = t.cid and m.user_id = ?")) {
            ps.setArray(1, Database.bigints(c, conversationIds));
            ps.setArray(2, Database.bigints(c, seqs));
            ps.setLong(3, userId);
            ps.executeUpdate();
        }
    }

    /** How a read receipt moved a member's read position: from and to a seq, and the msg_id at the new one. */
    public record ReadMove(long fromSeq, long toSeq, long toMsgId) {
        public boolean moved() {
            return toSeq > fromSeq;
        }
    }

    /** Read receipt: everything up to msg_id is READ; empty when the member or the message is not there. */
    public Optional<ReadMove> markReadUpTo(Connection c, long conversationId, long userId, long msgId)
            throws SQLException {
        // o reads the position before this update: its row lock makes a concurrent receipt wait and read the newer
        try (PreparedStatement ps = c.prepareStatement("update conversation_members m"
                + " set read_seq = greatest(m.read_seq, p.seq), delivered_seq = greatest(m.delivered_seq, p.seq)"
                + " from (select seq, msg_id from messages where conversation_id = ? and msg_id <= ?"
                + " order by msg_id desc limit 1) p,"
                + " (select read_seq from conversation_members where conversation_id = ? and user_id = ? for update) o"
                + " where m.conversation_id = ? and m.user_id = ? returning o.read_seq, m.read_seq, p.msg_id")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, msgId);
            ps.setLong(3, conversationId);
            ps.setLong(4, userId);
            ps.setLong(5, conversationId);
            ps.setLong(6, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new ReadMove(rs.getLong(1), rs.getLong(2), rs.getLong(3)))
                        : Optional.empty();
            }
        }
    }

    /** A member's acknowledgement of a live message: everything up to {@code msgId} is at least DELIVERED. */
    public record Delivered(long conversationId, long userId, long msgId) {}

    /** The devices' acknowledgements, in one statement; no member may appear twice (a row is updated once). */
    public void markDeliveredUpTo(Connection c, List<Delivered> acks) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update conversation_members m"
                + " set delivered_seq = greatest(m.delivered_seq, p.seq)"
                + " from (select t.cid, t.uid, (select x.seq from messages x where x.conversation_id = t.cid"
                + " and x.msg_id <= t.mid order by x.msg_id desc limit 1) as seq"
                + " from unnest(?::bigint[], ?::bigint[], ?::bigint[]) as t(cid, uid, mid)) p"
                + " where m.conversation_id = p.cid and m.user_id = p.uid and p.seq is not null")) {
            ps.setArray(1, Database.bigints(c, acks.stream().mapToLong(Delivered::conversationId).toArray()));
            ps.setArray(2, Database.bigints(c, acks.stream().mapToLong(Delivered::userId).toArray()));
            ps.setArray(3, Database.bigints(c, acks.stream().mapToLong(Delivered::msgId).toArray()));
            ps.executeUpdate();
        }
    }

    /** Deletes the conversation for this member only: hides everything up to now. */
    public void moveFloorToEnd(Connection c, long conversationId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update conversation_members m set"
                + " floor_seq = greatest(m.floor_seq, c.last_seq), floor_msg_id = greatest(m.floor_msg_id, c.last_msg_id)"
                + " from conversations c where c.id = m.conversation_id and m.conversation_id = ? and m.user_id = ?")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, userId);
            ps.executeUpdate();
        }
    }

    /**
     * The recalled messages above the position of member {@code m} (a row of conversation_members), which no unread
     * count includes: subtracted wherever one is taken from the positions (here, and the badge's first count in
     * offlinepush.UnreadCounts), through the index of recalled messages only.
     */
    public static final String RECALLED_UNREAD = "(select count(*) from messages r"
            + " where r.conversation_id = m.conversation_id and r.recalled_ms is not null"
            + " and r.seq > greatest(m.read_seq, m.floor_seq) and r.sender_id <> m.user_id)";

    /**
     * The member's visible conversations, most recent first, with their unread counts: the messages after the
     * member's position, less the recalled ones among them (an index of the recalled messages only).
     */
    public List<long[]> unread(Connection c, String appId, long userId, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select m.peer_id,"
                + " c.last_seq - greatest(m.read_seq, m.floor_seq) - " + RECALLED_UNREAD
                + " from conversation_members m"
                + " join conversations c on c.id = m.conversation_id"
                + " where m.app_id = ? and m.user_id = ? and c.last_seq > m.floor_seq"
                + " order by c.last_at desc, c.id desc limit ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, limit);
            List<long[]> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
            return rows;
        }
    }

    /** At most {@code limit} of the conversation's members, by user id (the primary key). */
    public List<Long> memberIds(Connection c, long conversationId, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select user_id from conversation_members"
                + " where conversation_id = ? order by user_id limit ?")) {
            ps.setLong(1, conversationId);
            ps.setInt(2, limit);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        }
    }
}
