package io.imcore.pushworker.batch;

import io.imcore.common.store.Database;
import io.imcore.pushworker.WorkerConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * This replica's claims and their leases (docs/push-worker.md "Exactly once"). A claim, on a task batch
 * ({@link BatchLedger}) or on the devices of an offline push record ({@link OfflineLedger}), names its holder, this
 * replica's {@link #owner()}, and stands until its lease ends. Every third of the lease one thread renews the leases
 * of every claim this replica still holds; a finished or released claim is no longer renewed, and the claims of a
 * replica that died lapse within one lease, after which another replica takes them over.
 */
@ApplicationScoped
public class ClaimLeases {

    /** Extends the leases of the claims {@code held} (this replica's, of one kind) to a lease from now. */
    @FunctionalInterface
    interface Renewal<K> {
        void renew(Connection c, List<K> held) throws SQLException;
    }

    /** The claims of one kind this replica holds, renewed until removed. */
    static final class Held<K> {

        private final String kind;
        private final Renewal<K> renewal;
        private final Set<K> claims = ConcurrentHashMap.newKeySet();

        private Held(String kind, Renewal<K> renewal) {
            this.kind = kind;
            this.renewal = renewal;
        }

        void add(K claim) {
            claims.add(claim);
        }

        /** False when the claim was not held (finished or released already). */
        boolean remove(K claim) {
            return claims.remove(claim);
        }

        private void renew(Database database) {
            List<K> mine = List.copyOf(claims);
            if (mine.isEmpty()) {
                return;
            }
            try {
                database.inTransaction(c -> {
                    renewal.renew(c, mine);
                    return null;
                });
            } catch (RuntimeException e) {
                LOG.warnf("claim leases not renewed (%d %s): %s", mine.size(), kind, e.getMessage());
            }
        }
    }

    private static final Logger LOG = Logger.getLogger(ClaimLeases.class);

    private final Database database;
    private final String owner;
    private final Duration lease;
    private final List<Held<?>> kinds = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "push-claim-renewer");
        t.setDaemon(true);
        return t;
    });

    public ClaimLeases(Database database, WorkerConfig config) {
        this.database = database;
        this.owner = config.replicaId().filter(id -> !id.isBlank()).orElse(UUID.randomUUID().toString());
        this.lease = config.claimLease();
        long every = Math.max(1, lease.toMillis() / 3);
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    }

    @PreDestroy
    void stopRenewing() {
        renewer.shutdownNow();
    }

    /** This replica's name on its claims ({@code im.push.worker.replica-id}; random per start when unset). */
    String owner() {
        return owner;
    }

    /** How long a claim stands without renewal. */
    Duration lease() {
        return lease;
    }

    /** How long a worker waits before it claims again a record another live worker holds: a tenth of the lease. */
    Duration recheckHeld() {
        return lease.dividedBy(10);
    }

    /** A kind of claim ({@code kind} names its unit in the log), renewed with {@code renewal} while held. */
    <K> Held<K> track(String kind, Renewal<K> renewal) {
        Held<K> held = new Held<>(kind, renewal);
        kinds.add(held);
        return held;
    }

    private void renew() {
        for (Held<?> held : kinds) {
            held.renew(database);
        }
    }
}
