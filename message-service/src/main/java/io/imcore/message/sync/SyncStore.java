package io.imcore.message.sync;

import io.imcore.message.conversation.MessageRow;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The users' change logs as read: pages from a position, the head, and the retention sweep. */
@ApplicationScoped
public class SyncStore {

    /**
     * An event with, when it names a message, that message and the position of whoever's receipt makes its status
     * for the user (docs/api-decisions.md "Status per viewer"): the user, or for their own message the peer user.
     */
    public record EventRow(long position, int type, long peerId, String payload, MessageRow message, Long readSeq,
            Long deliveredSeq) {}

    private static final String EVENT_COLUMNS = "select e.position, e.type, e.peer_id, e.payload, m.conversation_id,"
            + " m.msg_id, m.seq, m.sender_id, m.sender_device_sn, m.target_id, m.content_type, m.content, m.attachment,"
            + " m.config, m.ext, m.created_ms, m.recalled_ms, m.edited_ms, r.read_seq, r.delivered_seq"
            + " from sync_events e"
            + " left join messages m on m.conversation_id = e.conversation_id and m.msg_id = e.msg_id"
            // one member row by key per event (a lateral with limit: never a hash of the whole table)
            + " left join lateral (select read_seq, delivered_seq from conversation_members x"
            + " where x.conversation_id = e.conversation_id"
            + " and x.user_id = case when m.sender_id = e.user_id then e.peer_id else e.user_id end limit 1) r on true";

    /** A page: one range of the primary key (app, user, position), SyncPlansTest checks its plan. */
    static final String PAGE = EVENT_COLUMNS + " where e.app_id = ? and e.user_id = ?"
            + " and e.position > ? and e.position <= ? order by e.position limit ?";

    /** The user's events after {@code after} up to {@code upTo}, oldest first, at most {@code limit}. */
    public List<EventRow> page(Connection c, String appId, long userId, long after, long upTo, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PAGE)) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setLong(3, after);
            ps.setLong(4, upTo);
            ps.setInt(5, limit);
            return rows(ps);
        }
    }

    /** Some users' events by position (the live announcement names them). */
    public List<EventRow> find(Connection c, String appId, long userId, long[] positions) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(EVENT_COLUMNS + " where e.app_id = ? and e.user_id = ?"
                + " and e.position = any(?) order by e.position")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            Long[] boxed = new Long[positions.length];
            for (int i = 0; i < positions.length; i++) {
                boxed[i] = positions[i];
            }
            ps.setArray(3, c.createArrayOf("bigint", boxed));
            return rows(ps);
        }
    }

    /** The user's last position, 0 when they have no log. */
    public long head(Connection c, String appId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select last_pos from sync_heads where app_id = ? and user_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /**
     * The user's last position once every transaction writing to the user's log has ended: the upsert waits for
     * their lock on the head row, or for the insert of a new one. What a replay reads up to (docs/live-protocol.md).
     */
    public long settledHead(Connection c, String appId, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into sync_heads (app_id, user_id, last_pos)"
                + " values (?, ?, 0) on conflict (app_id, user_id) do update set last_pos = sync_heads.last_pos"
                + " returning last_pos")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Deletes up to {@code batch} events older than their app's retention; returns how many. The index on
     * created_at bounds the scan by the shortest retention.
     */
    public int sweep(Connection c, Duration retention, Map<String, Duration> byApp, int batch) throws SQLException {
        Duration shortest = byApp.values().stream().reduce(retention, (a, b) -> a.compareTo(b) <= 0 ? a : b);
        String[] apps = byApp.keySet().toArray(String[]::new);
        Double[] seconds = byApp.values().stream().map(d -> d.toMillis() / 1000.0).toArray(Double[]::new);
        try (PreparedStatement ps = c.prepareStatement("delete from sync_events where ctid in (select e.ctid"
                + " from sync_events e left join unnest(?::text[], ?::float8[]) as k(app_id, secs) on k.app_id = e.app_id"
                + " where e.created_at < now() - make_interval(secs => ?)"
                + " and e.created_at < now() - make_interval(secs => coalesce(k.secs, ?)) limit ?)")) {
            ps.setArray(1, c.createArrayOf("text", apps));
            ps.setArray(2, c.createArrayOf("float8", seconds));
            ps.setDouble(3, shortest.toMillis() / 1000.0);
            ps.setDouble(4, retention.toMillis() / 1000.0);
            ps.setInt(5, batch);
            return ps.executeUpdate();
        }
    }

    private static List<EventRow> rows(PreparedStatement ps) throws SQLException {
        List<EventRow> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                MessageRow message = null;
                rs.getLong(6);
                if (!rs.wasNull()) {
                    int sn = rs.getInt(9);
                    Integer senderDeviceSn = rs.wasNull() ? null : sn;
                    message = new MessageRow(rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8),
                            senderDeviceSn, rs.getLong(10), rs.getInt(11), rs.getString(12), rs.getString(13),
                            rs.getString(14), rs.getString(15), rs.getLong(16), (Long) rs.getObject(17),
                            (Long) rs.getObject(18));
                }
                long read = rs.getLong(19);
                Long readSeq = rs.wasNull() ? null : read;
                long delivered = rs.getLong(20);
                Long deliveredSeq = rs.wasNull() ? null : delivered;
                rows.add(new EventRow(rs.getLong(1), rs.getInt(2), rs.getLong(3), rs.getString(4), message, readSeq,
                        deliveredSeq));
            }
        }
        return rows;
    }
}
