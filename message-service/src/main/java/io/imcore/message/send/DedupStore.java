package io.imcore.message.send;

import io.imcore.common.store.ChunkedDelete;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * transaction_id de-duplication in the database, so it holds across replicas. The claim runs first in the
 * send's transaction: a concurrent repeat waits on the primary key until the first commits (then reads its
 * answer) or rolls back (then runs itself).
 */
@ApplicationScoped
public class DedupStore {

    /** The first call's answer when the transaction_id was used within the window (read before anything else). */
    public Optional<String> previous(Connection c, String appId, long senderId, long transactionId, Duration window)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select answer from send_dedup where app_id = ?"
                + " and sender_id = ? and transaction_id = ? and created_at >= now() - make_interval(secs => ?)")) {
            ps.setString(1, appId);
            ps.setLong(2, senderId);
            ps.setLong(3, transactionId);
            ps.setDouble(4, window.toMillis() / 1000.0);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * Empty when this call is the first within the window and must run; else the first call's answer. The claim
     * records the answer the call gives when it succeeds: if it fails, its transaction (claim included) rolls back.
     */
    public Optional<String> claim(Connection c, String appId, long senderId, long transactionId, Duration window,
            String answer) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into send_dedup (app_id, sender_id, transaction_id,"
                + " answer) values (?, ?, ?, ?) on conflict (app_id, sender_id, transaction_id) do update"
                + " set answer = excluded.answer, created_at = now()"
                + " where send_dedup.created_at < now() - make_interval(secs => ?) returning 1")) {
            ps.setString(1, appId);
            ps.setLong(2, senderId);
            ps.setLong(3, transactionId);
            ps.setString(4, answer);
            ps.setDouble(5, window.toMillis() / 1000.0);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return Optional.empty();
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("select answer from send_dedup"
                + " where app_id = ? and sender_id = ? and transaction_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, senderId);
            ps.setLong(3, transactionId);
            try (ResultSet rs = ps.executeQuery()) {
                return Optional.of(rs.next() ? rs.getString(1) : answer);
            }
        }
    }

    /** Forgets claims older than the window, in chunks (run with auto-commit); returns how many. */
    public long expire(Connection c, Duration window) throws SQLException {
        return ChunkedDelete.delete(c, "send_dedup", "created_at < now() - make_interval(secs => ?)", 1,
                (ps, first) -> ps.setDouble(first, window.toMillis() / 1000.0), ChunkedDelete.CHUNK);
    }
}
