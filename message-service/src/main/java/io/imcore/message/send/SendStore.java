package io.imcore.message.send;

import io.imcore.common.store.Database;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.webhook.WebhookEventQueue;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A send in one statement (one round trip): append to each target conversation (creating it and its members if
 * new), store the message rows and move the sender's read position. The recipients' connected devices are looked up
 * when the messages are written into their logs (ChangeLog), after those are locked.
 * <p>
 * Each conversation row is locked by its upsert, and seq and msg_id are drawn while holding that lock, so msg_ids
 * grow in commit order within a conversation. Rows are locked in key order, so multi-target sends cannot deadlock.
 */
@ApplicationScoped
public class SendStore {

    public record Message(long senderId, Integer senderDeviceSn, int contentType, String content, String attachment,
            String config, String ext, long createdMs) {

        /** This message, stored at {@code placed}, as its webhook event {@code message.created} describes it. */
        public WebhookEventQueue.CreatedMessage created(String appId, ConversationKind kind, PlacedMessage placed) {
            // a 1:1 message goes to the conversation's other user; a group's or the system's to its low_id
            long to = kind == ConversationKind.DIRECT && placed.lowId() == senderId ? placed.highId() : placed.lowId();
            return new WebhookEventQueue.CreatedMessage(appId, placed.conversationId(), placed.msgId(),
                    kind.name().toLowerCase(Locale.ROOT), senderId, to, contentType, content, attachment, config, ext,
                    createdMs);
        }
    }

    /** The rows placed, and how many existing conversations had the sender's read position moved. */
    public record Result(List<PlacedMessage> placed, int senderReadsMoved) {}

    /** %s: the target conversations' (low_id, high_id) pairs: one VALUES row, or unnest over arrays. */
    private static final String APPEND = "appended as (insert into conversations (app_id, kind, low_id, high_id,"
            + " last_seq, last_msg_id, last_at) select ?, ?, t.low_id, t.high_id, 1, nextval('msg_ids'), now()"
            + " from %s as t(low_id, high_id) order by t.low_id, t.high_id"
            + " on conflict (app_id, kind, low_id, high_id) do update set last_seq = conversations.last_seq + 1,"
            + " last_msg_id = nextval('msg_ids'), last_at = now()"
            + " returning id, low_id, high_id, last_seq, last_msg_id, (xmax = 0) as created)";

    private static final String STORE = "stored as (insert into messages (conversation_id, msg_id, seq, sender_id,"
            + " sender_device_sn, target_id, content_type, content, attachment, config, ext, created_ms)"
            + " select a.id, a.last_msg_id, a.last_seq, ?, ?, %s, ?, ?, ?, ?, ?, ? from appended a)";

    private static final Map<String, String> STATEMENTS = new ConcurrentHashMap<>();

    /** The statement text for one shape of send, built once per shape (kind, one target or many, from a user). */
    private static String statement(ConversationKind kind, boolean single, boolean fromUser) {
        return STATEMENTS.computeIfAbsent(kind + ":" + single + ":" + fromUser, shape -> {
            String targets = single ? "(values (?::bigint, ?::bigint))" : "unnest(?::bigint[], ?::bigint[])";
            StringBuilder sql = new StringBuilder("with ").append(String.format(APPEND, targets)).append(", ");
            sql.append(String.format(STORE, kind == ConversationKind.DIRECT
                    ? "case when a.low_id = ? then a.high_id else a.low_id end" : "a.low_id"));
            if (kind == ConversationKind.DIRECT) {
                // both users of a new conversation; the sender has read their own message
                sql.append(", new_members as (insert into conversation_members (conversation_id, user_id, app_id, peer_id,"
                        + " read_seq, delivered_seq) select distinct a.id, m.user_id, ?, m.peer_id,"
                        + " case when m.user_id = ? then a.last_seq else 0 end,"
                        + " case when m.user_id = ? then a.last_seq else 0 end from appended a"
                        + " cross join lateral (values (a.low_id, a.high_id), (a.high_id, a.low_id)) as m(user_id, peer_id)"
                        + " where a.created on conflict do nothing)");
            } else if (kind == ConversationKind.SYSTEM) {
                sql.append(", new_members as (insert into conversation_members (conversation_id, user_id, app_id, peer_id)"
                        + " select a.id, a.low_id, ?, 0 from appended a where a.created on conflict do nothing)");
            }
            if (fromUser) {
                sql.append(", sender_read as (update conversation_members m set read_seq = greatest(m.read_seq, a.last_seq),"
                        + " delivered_seq = greatest(m.delivered_seq, a.last_seq) from appended a"
                        + " where m.conversation_id = a.id and m.user_id = ? and not a.created returning 1)");
            }
            sql.append(" select a.id, a.low_id, a.high_id, a.last_seq, a.last_msg_id, a.created, ")
                    .append(fromUser ? "(select count(*) from sender_read)" : "0").append(" from appended a");
            return sql.toString();
        });
    }

    public Result append(Connection c, String appId, ConversationKind kind, long[] lowIds, long[] highIds,
            Message message) throws SQLException {
        boolean fromUser = message.senderId() != 0;
        // One target (the usual send) binds plain values: PostgreSQL then reuses one generic plan instead of
        // planning each execution, as it must for array parameters.
        boolean single = lowIds.length == 1;
        String sql = statement(kind, single, fromUser);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 0;
            ps.setString(++i, appId);
            ps.setShort(++i, kind.code);
            if (single) {
                ps.setLong(++i, lowIds[0]);
                ps.setLong(++i, highIds[0]);
            } else {
                ps.setArray(++i, Database.bigints(c, lowIds));
                ps.setArray(++i, Database.bigints(c, highIds));
            }
            ps.setLong(++i, message.senderId());
            if (message.senderDeviceSn() == null) {
                ps.setNull(++i, Types.INTEGER);
            } else {
                ps.setInt(++i, message.senderDeviceSn());
            }
            if (kind == ConversationKind.DIRECT) {
                ps.setLong(++i, message.senderId());
            }
            ps.setInt(++i, message.contentType());
            ps.setString(++i, message.content());
            ps.setString(++i, message.attachment());
            ps.setString(++i, message.config());
            ps.setString(++i, message.ext());
            ps.setLong(++i, message.createdMs());
            if (kind == ConversationKind.DIRECT) {
                ps.setString(++i, appId);
                ps.setLong(++i, message.senderId());
                ps.setLong(++i, message.senderId());
            } else if (kind == ConversationKind.SYSTEM) {
                ps.setString(++i, appId);
            }
            if (fromUser) {
                ps.setLong(++i, message.senderId());
            }
            List<PlacedMessage> placed = new ArrayList<>(lowIds.length);
            int senderReads = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    senderReads = rs.getInt(7);
                    placed.add(new PlacedMessage(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getBoolean(6)));
                }
            }
            return new Result(placed, senderReads);
        }
    }

    /** One 1:1 message of a group commit: from a user to one peer, whose conversation is (lowId, highId). */
    public record DirectMessage(String appId, long lowId, long highId, Message message) {

        /** Names the message's conversation: one statement may append to it once. */
        public String conversationKey() {
            return appId + ':' + lowId + ':' + highId;
        }
    }

    /** Where a group-committed 1:1 message landed, and whether the sender's read position moved with it. */
    public record DirectPlaced(PlacedMessage placed, boolean senderReadMoved) {}

    /**
     * Many 1:1 messages of distinct conversations in one statement, the multi-row form of the DIRECT send above:
     * the same upsert, message insert, new members and sender's read position, with each row's
     * own app, sender and content taken from parallel arrays. The rows' conversations must be distinct: an upsert
     * cannot touch one row twice (the caller puts repeats into later statements of its transaction).
     */
    private static final String APPEND_DIRECT = "with t as (select * from unnest(?::text[], ?::bigint[], ?::bigint[],"
            + " ?::bigint[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bigint[]) as t(app_id,"
            + " low_id, high_id, sender_id, sender_device_sn, content_type, content, attachment, config, ext, created_ms)),"
            + " appended as (insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id, last_at)"
            + " select t.app_id, ?, t.low_id, t.high_id, 1, nextval('msg_ids'), now() from t"
            + " order by t.app_id, t.low_id, t.high_id"
            + " on conflict (app_id, kind, low_id, high_id) do update set last_seq = conversations.last_seq + 1,"
            + " last_msg_id = nextval('msg_ids'), last_at = now()"
            + " returning id, app_id, low_id, high_id, last_seq, last_msg_id, (xmax = 0) as created),"
            + " placed as (select a.*, t.sender_id, t.sender_device_sn, t.content_type, t.content, t.attachment,"
            + " t.config, t.ext, t.created_ms from appended a"
            + " join t on t.app_id = a.app_id and t.low_id = a.low_id and t.high_id = a.high_id),"
            + " stored as (insert into messages (conversation_id, msg_id, seq, sender_id, sender_device_sn, target_id,"
            + " content_type, content, attachment, config, ext, created_ms) select p.id, p.last_msg_id, p.last_seq,"
            + " p.sender_id, p.sender_device_sn, case when p.low_id = p.sender_id then p.high_id else p.low_id end,"
            + " p.content_type, p.content, p.attachment, p.config, p.ext, p.created_ms from placed p),"
            + " new_members as (insert into conversation_members (conversation_id, user_id, app_id, peer_id, read_seq,"
            + " delivered_seq) select distinct p.id, m.user_id, p.app_id, m.peer_id,"
            + " case when m.user_id = p.sender_id then p.last_seq else 0 end,"
            + " case when m.user_id = p.sender_id then p.last_seq else 0 end from placed p"
            + " cross join lateral (values (p.low_id, p.high_id), (p.high_id, p.low_id)) as m(user_id, peer_id)"
            + " where p.created on conflict do nothing),"
            + " sender_read as (update conversation_members m set read_seq = greatest(m.read_seq, p.last_seq),"
            + " delivered_seq = greatest(m.delivered_seq, p.last_seq) from placed p"
            + " where m.conversation_id = p.id and m.user_id = p.sender_id and not p.created returning m.conversation_id)"
            + " select p.id, p.low_id, p.high_id, p.last_seq, p.last_msg_id, p.created,"
            + " p.id in (select conversation_id from sender_read), p.app_id from placed p";

    /** Stores 1:1 messages of distinct conversations in one round trip; the answers follow the input's order. */
    public List<DirectPlaced> appendDirect(Connection c, List<DirectMessage> messages) throws SQLException {
        int n = messages.size();
        String[] apps = new String[n];
        Long[] lows = new Long[n];
        Long[] highs = new Long[n];
        Map<String, Integer> positions = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            DirectMessage direct = messages.get(i);
            apps[i] = direct.appId();
            lows[i] = direct.lowId();
            highs[i] = direct.highId();
            if (positions.put(direct.conversationKey(), i) != null) {
                throw new IllegalArgumentException("one statement cannot append twice to a conversation");
            }
        }
        try (PreparedStatement ps = c.prepareStatement(APPEND_DIRECT)) {
            int i = 0;
            ps.setArray(++i, c.createArrayOf("text", apps));
            ps.setArray(++i, c.createArrayOf("bigint", lows));
            ps.setArray(++i, c.createArrayOf("bigint", highs));
            i = bindMessageColumns(c, ps, i, messages.stream().map(DirectMessage::message).toList());
            ps.setShort(++i, ConversationKind.DIRECT.code);
            DirectPlaced[] placed = new DirectPlaced[n];
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int at = positions.get(rs.getString(8) + ':' + rs.getLong(2) + ':' + rs.getLong(3));
                    placed[at] = new DirectPlaced(new PlacedMessage(rs.getLong(1), rs.getLong(2), rs.getLong(3),
                            rs.getLong(4), rs.getLong(5), rs.getBoolean(6)), rs.getBoolean(7));
                }
            }
            for (DirectPlaced one : placed) {
                if (one == null) {
                    throw new IllegalStateException("a message of the statement returned no row");
                }
            }
            return List.of(placed);
        }
    }

    /** Takes the group conversation's row lock and k positions after its last: returns last_seq after. */
    private static final String BUMP_GROUP = "update conversations set last_seq = last_seq + ?, last_at = now()"
            + " where id = ? returning last_seq";

    /**
     * With the row lock held: k msg_ids drawn (ascending in arrival order), the k message rows, each sender's read
     * position at its last message and the conversation's last_msg_id.
     */
    private static final String APPEND_GROUP = "with ids as (select row_number() over (order by n.msg_id) as ord,"
            + " n.msg_id from (select nextval('msg_ids') as msg_id from generate_series(1, ?)) n),"
            + " m as (select * from unnest(?::bigint[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::text[],"
            + " ?::bigint[]) with ordinality as m(sender_id, sender_device_sn, content_type, content, attachment,"
            + " config, ext, created_ms, ord)),"
            + " stored as (insert into messages (conversation_id, msg_id, seq, sender_id, sender_device_sn, target_id,"
            + " content_type, content, attachment, config, ext, created_ms) select ?, i.msg_id, ? + m.ord, m.sender_id,"
            + " m.sender_device_sn, ?, m.content_type, m.content, m.attachment, m.config, m.ext, m.created_ms"
            + " from m join ids i on i.ord = m.ord),"
            + " reads as (update conversation_members cm set read_seq = greatest(cm.read_seq, r.seq),"
            + " delivered_seq = greatest(cm.delivered_seq, r.seq) from (select sender_id, max(? + ord) as seq from m"
            + " where sender_id <> 0 group by sender_id) r where cm.conversation_id = ? and cm.user_id = r.sender_id),"
            + " last as (update conversations set last_msg_id = (select max(msg_id) from ids) where id = ?)"
            + " select i.ord, i.msg_id from ids i order by i.ord";

    /**
     * Several messages to one group in one transaction, in the given order: one lock of the group's conversation
     * row for all of them (the one-message statement holds it once per message), positions and msg_ids drawn under
     * it, so the order and the ids are those of the messages sent one after the other.
     */
    public List<PlacedMessage> appendToGroup(Connection c, long groupId, long conversationId, List<Message> messages)
            throws SQLException {
        int n = messages.size();
        long before;
        try (PreparedStatement ps = c.prepareStatement(BUMP_GROUP)) {
            ps.setInt(1, n);
            ps.setLong(2, conversationId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("group " + groupId + " has no conversation row");
                }
                before = rs.getLong(1) - n;
            }
        }
        try (PreparedStatement ps = c.prepareStatement(APPEND_GROUP)) {
            int i = 0;
            ps.setInt(++i, n);
            i = bindMessageColumns(c, ps, i, messages);
            ps.setLong(++i, conversationId);
            ps.setLong(++i, before);
            ps.setLong(++i, groupId);
            ps.setLong(++i, before);
            ps.setLong(++i, conversationId);
            ps.setLong(++i, conversationId);
            List<PlacedMessage> placed = new ArrayList<>(n);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    placed.add(new PlacedMessage(conversationId, groupId, 0, before + rs.getLong(1), rs.getLong(2),
                            false));
                }
            }
            if (placed.size() != n) {
                throw new IllegalStateException(n + " group messages, " + placed.size() + " placed");
            }
            return placed;
        }
    }

    /**
     * Binds the messages' own columns as parallel arrays after parameter {@code index}, in the order both multi-row
     * statements unnest them (sender, device, content type, content, attachment, config, ext, created); returns the
     * last parameter index bound.
     */
    private static int bindMessageColumns(Connection c, PreparedStatement ps, int index, List<Message> messages)
            throws SQLException {
        int n = messages.size();
        Long[] senders = new Long[n];
        Integer[] devices = new Integer[n];
        Integer[] contentTypes = new Integer[n];
        String[] contents = new String[n];
        String[] attachments = new String[n];
        String[] configs = new String[n];
        String[] exts = new String[n];
        Long[] created = new Long[n];
        for (int i = 0; i < n; i++) {
            Message message = messages.get(i);
            senders[i] = message.senderId();
            devices[i] = message.senderDeviceSn();
            contentTypes[i] = message.contentType();
            contents[i] = message.content();
            attachments[i] = message.attachment();
            configs[i] = message.config();
            exts[i] = message.ext();
            created[i] = message.createdMs();
        }
        int i = index;
        ps.setArray(++i, c.createArrayOf("bigint", senders));
        ps.setArray(++i, c.createArrayOf("integer", devices));
        ps.setArray(++i, c.createArrayOf("integer", contentTypes));
        ps.setArray(++i, c.createArrayOf("text", contents));
        ps.setArray(++i, c.createArrayOf("text", attachments));
        ps.setArray(++i, c.createArrayOf("text", configs));
        ps.setArray(++i, c.createArrayOf("text", exts));
        ps.setArray(++i, c.createArrayOf("bigint", created));
        return i;
    }
}
