package io.imcore.message.revision;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The statements of recall and edit: each reaches the message by its primary key. */
@ApplicationScoped
public class RevisionStore {

    /** What the checks of a recall or an edit need of a stored message. */
    record Stored(long msgId, long seq, long senderId, long targetId, int contentType, long createdMs,
            Long recalledMs) {}

    /** The message, locked until the transaction ends, so two changes of one message happen one after the other. */
    Optional<Stored> lock(Connection c, long conversationId, long msgId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select msg_id, seq, sender_id, target_id, content_type,"
                + " created_ms, recalled_ms from messages where conversation_id = ? and msg_id = ? for update")) {
            ps.setLong(1, conversationId);
            ps.setLong(2, msgId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Stored(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getInt(5), rs.getLong(6), rs.getObject(7, Long.class)));
            }
        }
    }

    /** Clears what the message said (its config, the push and mention options, stays) and marks it recalled. */
    void recall(Connection c, long conversationId, long msgId, long nowMs) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update messages set content = '', attachment = null,"
                + " ext = null, recalled_ms = ? where conversation_id = ? and msg_id = ?")) {
            ps.setLong(1, nowMs);
            ps.setLong(2, conversationId);
            ps.setLong(3, msgId);
            ps.executeUpdate();
        }
    }

    /** Replaces the content, and the ext unless {@code ext} is null. */
    void edit(Connection c, long conversationId, long msgId, String content, String ext, long nowMs)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update messages set content = ?, ext = coalesce(?, ext),"
                + " edited_ms = ? where conversation_id = ? and msg_id = ?")) {
            ps.setString(1, content);
            ps.setString(2, ext);
            ps.setLong(3, nowMs);
            ps.setLong(4, conversationId);
            ps.setLong(5, msgId);
            ps.executeUpdate();
        }
    }

    /** The conversation's members, each with the address they see it by: {user_id, peer_id}, by user id. */
    List<long[]> members(Connection c, long conversationId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select user_id, peer_id from conversation_members"
                + " where conversation_id = ? order by user_id")) {
            ps.setLong(1, conversationId);
            List<long[]> members = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    members.add(new long[] {rs.getLong(1), rs.getLong(2)});
                }
            }
            return members;
        }
    }
}
