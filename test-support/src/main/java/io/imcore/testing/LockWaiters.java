package io.imcore.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The positive signal for "it waits on this lock": a test that holds a row or advisory lock waits until another
 * session queues behind it, rather than sleeping and assuming it did.
 */
public final class LockWaiters {

    private LockWaiters() {}

    /** Waits, up to 30 s, until a session waits for a lock that {@code holder}'s open transaction holds. */
    public static void await(Connection holder, String what) {
        // pg_locks, read afresh by every statement (pg_stat_activity is kept for the transaction)
        try (PreparedStatement blocked = holder.prepareStatement("select count(*) from pg_locks"
                + " where not granted and pg_backend_pid() = any(pg_blocking_pids(pid))")) {
            Eventually.until(Duration.ofSeconds(30), what, () -> {
                try (ResultSet rs = blocked.executeQuery()) {
                    return rs.next() && rs.getLong(1) > 0;
                }
            });
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
