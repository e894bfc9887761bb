package io.imcore.push.device;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** A PostgreSQL advisory lock held until the transaction ends: serialises writers of one logical key. */
final class TransactionLock {

    private TransactionLock() {
    }

    /** Waits for the lock on {@code key} (a hash collision only serialises two unrelated keys). */
    static void acquire(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
            ps.setString(1, key);
            ps.execute();
        }
    }
}
