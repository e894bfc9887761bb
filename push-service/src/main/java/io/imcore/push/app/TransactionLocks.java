package io.imcore.push.app;

import io.imcore.common.store.AdvisoryLocks;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/**
 * PostgreSQL advisory locks held until the current transaction ends, taken on the transaction's connection (the one
 * Hibernate's session uses): they serialise the writers of one logical key, also where the row to lock may not exist
 * yet. Used by the stores whose entities two calls may insert at once: {@link PushAppStore}, the certificate and
 * device stores.
 */
@ApplicationScoped
public class TransactionLocks {

    private final Database database;

    public TransactionLocks(Database database) {
        this.database = database;
    }

    /** Waits for the lock on {@code key} (a hash collision only serialises two unrelated keys). */
    @Transactional(Transactional.TxType.MANDATORY)
    public void acquire(String key) {
        database.inTransaction(c -> {
            AdvisoryLocks.xactLock(c, key);
            return null;
        });
    }
}
