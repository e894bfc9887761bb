package io.imcore.message.store;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A send in one statement (one round trip): append to each target conversation (creating it and its members if
 * new), store the message rows, move the sender's read position, and return the recipients' connected devices.
 * <p>
 * Each conversation row is locked by its upsert, and seq and msg_id are drawn while holding that lock, so msg_ids
 * grow in commit order within a conversation. Rows are locked in key order, so multi-target sends cannot deadlock.
 */
@ApplicationScoped
public class SendStore {

    /** Where a message landed, whether its conversation is new, and who of its recipients is connected where. */
    public record Placed(long conversationId, long lowId, long highId, long seq, long msgId, boolean created,
            List<Online> online) {}

    public record Online(long userId, String replicaId) {}

    public record Message(long senderId, Integer senderDeviceSn, int contentType, String content, String attachment,
            String config, String ext, long createdMs) {}

    /** The rows placed, and how many existing conversations had the sender's read position moved. */
    public record Result(List<Placed> placed, int senderReadsMoved) {}

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

    private static final String LIVE_REPLICA = " join replicas r on r.replica_id = p.replica_id"
            + " and r.heartbeat_at > now() - make_interval(secs => ?)";

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
                    .append(fromUser ? "(select count(*) from sender_read)" : "0").append(", array(");
            if (kind == ConversationKind.GROUP) {
                sql.append("select p.user_id || ':' || p.replica_id from conversation_members m join presence p"
                        + " on p.app_id = m.app_id and p.user_id = m.user_id" + LIVE_REPLICA + " where m.conversation_id = a.id");
            } else {
                sql.append("select p.user_id || ':' || p.replica_id from presence p" + LIVE_REPLICA
                        + " where p.app_id = ? and p.user_id in (a.low_id, a.high_id)");
            }
            sql.append(") from appended a");
            return sql.toString();
        });
    }

    public Result append(Connection c, String appId, ConversationKind kind, long[] lowIds, long[] highIds,
            Message message, Duration presenceExpiry) throws SQLException {
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
            ps.setDouble(++i, presenceExpiry.toMillis() / 1000.0);
            if (kind != ConversationKind.GROUP) {
                ps.setString(++i, appId);
            }
            List<Placed> placed = new ArrayList<>(lowIds.length);
            int senderReads = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    senderReads = rs.getInt(7);
                    placed.add(new Placed(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                            rs.getBoolean(6), online(rs.getArray(8))));
                }
            }
            return new Result(placed, senderReads);
        }
    }

    private static List<Online> online(Array array) throws SQLException {
        String[] entries = (String[]) array.getArray();
        if (entries.length == 0) {
            return List.of();
        }
        List<Online> online = new ArrayList<>(entries.length);
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            online.add(new Online(Long.parseLong(entry.substring(0, colon)), entry.substring(colon + 1)));
        }
        return online;
    }
}
