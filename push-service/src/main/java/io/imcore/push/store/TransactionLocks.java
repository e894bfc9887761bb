package io.imcore.push.store;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.PreparedStatement;
import org.hibernate.Session;

/**
 * PostgreSQL advisory locks held until the current transaction ends, taken on the Hibernate session's connection:
 * they serialise the writers of one logical key, also where the row to lock may not exist yet.
 */
@ApplicationScoped
public class TransactionLocks {

    private final Session session;

    public TransactionLocks(Session session) {
        this.session = session;
    }

    /** Waits for the lock on {@code key} (a hash collision only serialises two unrelated keys). */
    @Transactional(Transactional.TxType.MANDATORY)
    public void acquire(String key) {
        session.doWork(c -> {
            try (PreparedStatement ps = c.prepareStatement("select pg_advisory_xact_lock(hashtextextended(?, 0))")) {
                ps.setString(1, key);
                ps.execute();
            }
        });
    }
}
