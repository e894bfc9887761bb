package io.imcore.message.conversation;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Messages, stored once per conversation (a group message is one row, whatever the member count). */
@ApplicationScoped
public class MessageStore {

    private static final String COLUMNS = "conversation_id, msg_id, seq, sender_id, sender_device_sn, target_id,"
            + " content_type, content, attachment, config, ext, created_ms, recalled_ms, edited_ms";
    private static final String M_COLUMNS = COLUMNS.replaceAll("(\\w+)", "m.$1");

    /**
     * A page of a conversation, newest first: messages with floorMsgId &lt; msg_id &lt; before (before 0 = no
     * upper bound). Reads limit + 1 rows so the caller can tell whether older ones exist.
     */
    public List<MessageRow> pageDescending(Connection c, long conversationId, long floorMsgId, long before, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + COLUMNS + " from messages"
                + " where conversation_id = ? and msg_id > ? and msg_id < ? order by msg_id desc limit ?")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, floorMsgId);
            ps.setLong(3, before == 0 ? Long.MAX_VALUE : before);
            ps.setInt(4, limit + 1);
            return rows(ps);
        }
    }

    /** Messages by (conversation_id, msg_id) pairs, for live delivery. */
    public List<MessageRow> find(Connection c, long[] conversationIds, long[] msgIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select " + M_COLUMNS
                + " from unnest(?::bigint[], ?::bigint[]) as t(cid, mid)"
                + " join messages m on m.conversation_id = t.cid and m.msg_id = t.mid")) {
            ps.setArray(1, Database.bigints(c, conversationIds));
            ps.setArray(2, Database.bigints(c, msgIds));
            return rows(ps);
        }
    }

    private static List<MessageRow> rows(PreparedStatement ps) throws SQLException {
        List<MessageRow> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                int sn = rs.getInt(5);
                Integer senderDeviceSn = rs.wasNull() ? null : sn;
                rows.add(new MessageRow(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), senderDeviceSn,
                        rs.getLong(6), rs.getInt(7), rs.getString(8), rs.getString(9), rs.getString(10),
                        rs.getString(11), rs.getLong(12), rs.getObject(13, Long.class), rs.getObject(14, Long.class)));
            }
        }
        return rows;
    }
}
