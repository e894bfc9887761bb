package io.imcore.throttle;

import io.imcore.common.api.Throttled;
import io.imcore.common.store.Database;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Per-user quotas: each user of an app may use this much of the app's calls ({@code im.throttle.quota.<name>},
 * overridable per app like {@link AppQuotas}: the override is then every user's limit in that app), so that one user
 * cannot use up the app's quota. A call costs units (a send: its targets), like the app's quota.
 * <p>
 * Judged in the replica, with no database round trip per call (a send is served on the event loop when nothing else
 * blocks): each replica keeps its view of a user's GCRA bucket, allows or refuses from it, and every
 * {@code im.throttle.settle-interval} charges what it allowed to the shared bucket in {@code throttle_buckets}, one
 * statement for all its users, taking back the shared {@code tat}, which holds every replica's charges. A user
 * spreading calls over replicas is allowed at most what the others allowed since their last settle more than the
 * limit, and then waits that off like any debt (docs/throttling.md "Per-user quotas").
 */
@ApplicationScoped
public class UserQuotas {

    private static final Logger LOG = Logger.getLogger(UserQuotas.class);
    private static final int MAX_USERS = 100_000;
    /** Adds each key's charge to its shared bucket, unconditionally (the replica allowed it already). */
    private static final String SETTLE = """
            insert into throttle_buckets as b (key, tat)
            select u.k, now() + u.d * interval '1 microsecond' from unnest(?::text[], ?::bigint[]) as u(k, d)
            on conflict (key) do update set tat = greatest(b.tat, now()) + (excluded.tat - now())
            returning b.key, ceil(extract(epoch from b.tat - now()) * 1000000)::bigint
            """;

    private final AppQuotas quotas;
    private final Database database;
    private final ThrottleMetrics metrics;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final ScheduledExecutorService settler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("user-quota-settle").daemon().factory());

    /** This replica's view of a user's bucket, and what it allowed that the shared bucket does not hold yet. */
    private static final class Bucket {
        long tatNanos = System.nanoTime();
        long unsettledMicros;
        /** Dropped from the map: a call that still holds it looks again. */
        boolean dropped;
    }

    public UserQuotas(AppQuotas quotas, Database database, ThrottleMetrics metrics, ThrottleConfig config) {
        this.quotas = quotas;
        this.database = database;
        this.metrics = metrics;
        long every = config.settleInterval().toNanos();
        settler.scheduleWithFixedDelay(this::settle, every, every, TimeUnit.NANOSECONDS);
    }

    /** Takes a call costing {@code units} from the user's quota, or refuses it with 10015 (limit {@code user}). */
    public void consume(String quota, String route, String appId, long userId, int units) {
        RateLimit limit = quotas.effective(quota, appId);
        long interval = limit.intervalMicros();
        long cost = Math.max(1, Math.min(units, limit.burst()));
        String key = "quota:" + quota + ":" + appId + ":" + userId;
        while (true) {
            if (buckets.size() >= MAX_USERS) {
                dropIdle(System.nanoTime());
            }
            Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket());
            long waitNanos;
            synchronized (bucket) {
                if (bucket.dropped) {
                    continue;
                }
                long now = System.nanoTime();
                long next = Math.max(bucket.tatNanos, now) + cost * interval * 1000;
                waitNanos = next - (now + limit.burst() * interval * 1000);
                if (waitNanos <= 0) {
                    bucket.tatNanos = next;
                    bucket.unsettledMicros += cost * interval;
                    return;
                }
            }
            metrics.throttled(route, "user");
            throw new Throttled(Duration.ofNanos(waitNanos));
        }
    }

    /** Charges what this replica allowed to the shared buckets and takes their state back; drops idle views. */
    synchronized void settle() {
        List<String> keys = new ArrayList<>();
        List<Long> charges = new ArrayList<>();
        long now = System.nanoTime();
        dropIdle(now);
        buckets.forEach((key, bucket) -> {
            synchronized (bucket) {
                if (bucket.unsettledMicros > 0) {
                    keys.add(key);
                    charges.add(bucket.unsettledMicros);
                    bucket.unsettledMicros = 0;
                }
            }
        });
        if (keys.isEmpty()) {
            return;
        }
        try {
            database.autoCommit(c -> {
                try (PreparedStatement ps = c.prepareStatement(SETTLE)) {
                    ps.setArray(1, c.createArrayOf("text", keys.toArray()));
                    ps.setArray(2, c.createArrayOf("int8", charges.toArray()));
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            learn(rs.getString(1), now + rs.getLong(2) * 1000);
                        }
                    }
                }
                return null;
            });
        } catch (RuntimeException e) { // the database is away: charged at the next settle
            LOG.warnf("user quotas not settled, retried in the next interval: %s", e.toString());
            for (int i = 0; i < keys.size(); i++) {
                Bucket bucket = buckets.computeIfAbsent(keys.get(i), k -> new Bucket());
                synchronized (bucket) {
                    bucket.unsettledMicros += charges.get(i);
                }
            }
        }
    }

    /** Forgets the views of full, settled buckets: as if absent (no database work: callable from any thread). */
    private void dropIdle(long now) {
        buckets.forEach((key, bucket) -> {
            synchronized (bucket) {
                if (bucket.unsettledMicros == 0 && bucket.tatNanos - now <= 0) {
                    bucket.dropped = true;
                    buckets.remove(key, bucket);
                }
            }
        });
    }

    /** The shared bucket holds every replica's charges: the view is never behind it. */
    private void learn(String key, long sharedTatNanos) {
        Bucket bucket = buckets.get(key);
        if (bucket != null) {
            synchronized (bucket) {
                bucket.tatNanos = Math.max(bucket.tatNanos, sharedTatNanos);
            }
        }
    }

    @PreDestroy
    void stop() {
        settler.shutdownNow();
    }
}
