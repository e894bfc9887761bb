package io.imcore.common.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * PostgreSQL advisory locks on a connection, one statement each (they sit on hot paths: no extra round trip).
 * Transaction locks end with the connection's transaction; a session lock stays until {@link #sessionUnlock}
 * or the connection closes, so it must be taken on a connection of its own and released before the connection
 * goes back to a pool.
 */
public final class AdvisoryLocks {

    private AdvisoryLocks() {
    }

    /** Waits for the lock on {@code key} until the transaction ends. */
    public static void xactLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        }
    }

    /** Waits for the lock on a 64-bit hash of {@code key} (a collision only serialises two unrelated keys). */
    public static void xactLock(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
            ps.setString(1, key);
            ps.execute();
        }
    }

    /** Takes the lock on {@code key} until the transaction ends if no one holds it; false without waiting if one does. */
    public static boolean tryXactLock(Connection c, long key) throws SQLException {
        return queryBoolean(c, "select pg_try_advisory_xact_lock(?)", key);
    }

    /** Takes the session lock on {@code key} if no one holds it; false without waiting if one does. */
    public static boolean trySessionLock(Connection c, long key) throws SQLException {
        return queryBoolean(c, "select pg_try_advisory_lock(?)", key);
    }

    /** Releases a session lock this connection holds on {@code key}. */
    public static void sessionUnlock(Connection c, long key) throws SQLException {
        queryBoolean(c, "select pg_advisory_unlock(?)", key);
    }

    private static boolean queryBoolean(Connection c, String sql, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }
}
