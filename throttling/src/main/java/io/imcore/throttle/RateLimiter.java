package io.imcore.throttle;

import io.imcore.common.api.Throttled;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Rate limits shared by every replica: the generic cell rate algorithm (GCRA, ITU-T I.371; a token bucket written as
 * one timestamp). Each key keeps its "theoretical arrival time" {@code tat} in {@code throttle_buckets}; a call is
 * allowed when moving {@code tat} one interval on keeps it within {@code burst} intervals of now. Taking calls is
 * one auto-committed upsert (one round trip, the row locked only for that statement); a refused call reads the row
 * once more to say how long to wait. Time is the database's clock, so replicas with skewed clocks agree. A row whose
 * {@code tat} is past is the same as no row (a full bucket), which is what the purge deletes.
 * <p>
 * Calls on one key within a replica are combined: while a take of the key is in flight, the calls that arrive queue
 * behind it, and the first of them then takes for all of them at once ({@code n} intervals, allowed when all fit).
 * A busy app's quota costs one upsert per round trip instead of one per call, and its row is locked that much less
 * often (docs/throttling.md "Cost"). When a combined take does not fit, each of its calls is judged on its own.
 * <p>
 * A busy key's take also takes calls ahead of demand, a <em>lease</em>: as many as this replica's other calls on
 * the key in the last one to two lease windows, at most what the limit allows in a window and a quarter of the
 * burst, and none when that comes to fewer than two. The replica's next calls within the window are allowed from the
 * lease without a round trip; what is left when the window ends is dropped, never given to a call later. So the
 * calls allowed never exceed the bucket's by more than one window's lease per replica, and the bucket loses at most
 * that much to leases that went unused (docs/throttling.md "Leases"). A limit that allows fewer than two calls per
 * window (or a burst below eight) never leases: its calls are exact.
 * <p>
 * A call may cost several units (a send: its targets): it takes that many intervals, from a lease only when all
 * of them are left, and counts that much demand. The sizes above are in units.
 */
@ApplicationScoped
public class RateLimiter {

    private static final String TAKE = """
            insert into throttle_buckets as b (key, tat) values (?, now() + ? * interval '1 microsecond')
            on conflict (key) do update set tat = greatest(b.tat, now()) + ? * interval '1 microsecond'
            where greatest(b.tat, now()) + ? * interval '1 microsecond' <= now() + ? * interval '1 microsecond'
            """;
    private static final String WAIT = "select ceil(extract(epoch from greatest(tat, now()) - now()) * 1000000)::bigint"
            + " from throttle_buckets where key = ?";

    /** At most this share of the burst is leased at once: the rest stays for the other replicas. */
    private static final int LEASE_SHARE_OF_BURST = 4;
    private static final int MAX_LEASED_KEYS = 10_000;

    private final Database database;
    private final ThrottleMetrics metrics;
    private final Timer takes;
    private final Counter bucketWrites;
    private final long leaseWindowNanos;
    /** Per key with a take in flight: the calls queued behind it, the first of which takes next for all. */
    private final ConcurrentHashMap<String, List<Call>> lines = new ConcurrentHashMap<>();
    /** Per key that leases: its lease and its recent demand. */
    private final ConcurrentHashMap<String, Lease> leases = new ConcurrentHashMap<>();

    /** One call waiting for its answer, or for its turn to take for everyone queued with it; it costs {@code units}. */
    private static final class Call {
        final CompletableFuture<Optional<Duration>> answer = new CompletableFuture<>();
        final CompletableFuture<Void> turn = new CompletableFuture<>();
        final int units;

        Call(int units) {
            this.units = units;
        }
    }

    @Inject
    public RateLimiter(Database database, ThrottleMetrics metrics, MeterRegistry registry, ThrottleConfig config) {
        this(database, metrics, registry, config.leaseWindow());
    }

    /** A limiter of its own with the given lease window (0: none), sharing the buckets' table. */
    public RateLimiter(Database database, ThrottleMetrics metrics, MeterRegistry registry, Duration leaseWindow) {
        this.database = database;
        this.metrics = metrics;
        this.leaseWindowNanos = leaseWindow.toNanos();
        this.takes = Timer.builder("imcore.throttle.take")
                .description("one call's take from a bucket, its wait for a combined take included").register(registry);
        this.bucketWrites = Counter.builder("imcore.throttle.bucket.writes")
                .description("takes from a bucket in the database, each for one call or more").register(registry);
    }

    /** Takes one call from the key's bucket or refuses it with 10015, counted under the route and limit name. */
    public void take(String key, RateLimit limit, String route, String limitName) {
        Optional<Duration> wait = acquire(key, limit);
        if (wait.isPresent()) {
            metrics.throttled(route, limitName);
            throw new Throttled(wait.get());
        }
    }

    /** Takes one call from the key's bucket: empty when allowed, else how long until one is available. */
    public Optional<Duration> acquire(String key, RateLimit limit) {
        return acquire(key, limit, 1);
    }

    /**
     * Takes a call that costs {@code units} (a send to 500 targets: 500) from the key's bucket: empty when allowed,
     * else how long until it fits. A call costing more than the burst costs the burst: it needs a full bucket.
     */
    public Optional<Duration> acquire(String key, RateLimit limit, int units) {
        long start = System.nanoTime();
        int cost = Math.max(1, Math.min(units, limit.burst()));
        Lease lease = leaseOf(key, limit);
        // an attempt that finds no lease counts nothing: the call comes back on a worker and is counted then
        boolean attempt = NonBlockingAttempt.active();
        if (lease != null && (attempt ? lease.tryUseLeased(start, cost) : lease.tryUse(start, cost))) {
            takes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return Optional.empty();
        }
        NonBlockingAttempt.refuseBlocking(); // the queue and the bucket's round trip wait
        Call call = new Call(cost);
        lines.compute(key, (k, queued) -> {
            if (queued == null) { // nothing in flight: this call goes first
                queued = new ArrayList<>();
                call.turn.complete(null);
            }
            queued.add(call);
            return queued;
        });
        try {
            CompletableFuture.anyOf(call.answer, call.turn).join();
            if (!call.answer.isDone()) {
                takeForQueued(key, limit, lease);
            }
            return call.answer.join();
        } catch (CompletionException e) { // the take failed (say the database is away): its own exception
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        } finally {
            takes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * This call's turn: takes for every call queued on the key now (itself included), from the lease (null: none)
     * as far as it goes, then from the bucket with the next lease if it fits, then hands the turn on.
     */
    private void takeForQueued(String key, RateLimit limit, Lease lease) {
        List<Call> group = new ArrayList<>();
        lines.computeIfPresent(key, (k, queued) -> {
            group.addAll(queued);
            queued.clear();
            return queued;
        });
        try {
            if (lease != null) { // a take before this one may have leased units for these
                long now = System.nanoTime();
                while (!group.isEmpty() && lease.useExactly(group.get(0).units, now)) {
                    group.remove(0).answer.complete(Optional.empty());
                }
            }
            int units = group.stream().mapToInt(call -> call.units).sum();
            int ahead = lease == null || group.isEmpty() ? 0
                    : lease.wanted(units, System.nanoTime(), leaseCap(limit));
            Optional<Duration> wait;
            if (ahead > 0 && takeCalls(key, limit, units + ahead).isEmpty()) {
                lease.add(ahead, System.nanoTime());
                wait = Optional.empty();
            } else {
                wait = group.isEmpty() ? Optional.empty() : takeCalls(key, limit, units);
            }
            if (wait.isEmpty() || group.size() == 1) {
                group.forEach(call -> call.answer.complete(wait));
            } else {
                for (Call call : group) { // all together did not fit: as many as fit, one by one
                    call.answer.complete(takeCalls(key, limit, call.units));
                }
            }
        } catch (RuntimeException e) {
            group.forEach(call -> call.answer.completeExceptionally(e));
        } finally {
            lines.compute(key, (k, queued) -> {
                if (queued == null || queued.isEmpty()) {
                    return null;
                }
                queued.get(0).turn.complete(null);
                return queued;
            });
        }
    }

    /** Takes {@code calls} units at once: empty when all fit, else how long until they would. */
    private Optional<Duration> takeCalls(String key, RateLimit limit, int calls) {
        long interval = limit.intervalMicros();
        long window = interval * limit.burst();
        bucketWrites.increment();
        return database.autoCommit(c -> {
            try (PreparedStatement take = c.prepareStatement(TAKE)) {
                take.setString(1, key);
                take.setLong(2, interval * calls);
                take.setLong(3, interval * calls);
                take.setLong(4, interval * calls);
                take.setLong(5, window);
                if (take.executeUpdate() == 1) {
                    return Optional.empty();
                }
            }
            try (PreparedStatement wait = c.prepareStatement(WAIT)) {
                wait.setString(1, key);
                try (ResultSet rs = wait.executeQuery()) {
                    long ahead = rs.next() ? rs.getLong(1) : 0;
                    // the units fit once tat + their intervals are back within the window
                    return Optional.of(Duration.ofNanos(Math.max(1, ahead + interval * calls - window) * 1000));
                }
            }
        });
    }

    /** The key's lease, or null when its limit allows no call in a lease window or its burst is below four. */
    private Lease leaseOf(String key, RateLimit limit) {
        if (leaseCap(limit) == 0) {
            return null;
        }
        Lease known = leases.get(key);
        if (known != null) {
            return known;
        }
        if (leases.size() >= MAX_LEASED_KEYS) {
            leases.clear(); // what is dropped is at most one window's lease per key
        }
        return leases.computeIfAbsent(key, k -> new Lease(leaseWindowNanos));
    }

    /** The most calls one lease may hold: what the limit allows in a window, at most a share of the burst. */
    private int leaseCap(RateLimit limit) {
        long perWindow = leaseWindowNanos * limit.limit() / limit.period().toNanos();
        return (int) Math.min(perWindow, limit.burst() / LEASE_SHARE_OF_BURST);
    }

    /**
     * Calls taken from a key's bucket ahead of demand, usable by this replica until the window after their take
     * ends, and the key's demand: its calls in the current and the last window.
     */
    private static final class Lease {
        private final long windowNanos;
        private long windowStart = System.nanoTime();
        private int callsThisWindow;
        private int callsLastWindow;
        private int remaining;
        private long expiresAt;

        Lease(long windowNanos) {
            this.windowNanos = windowNanos;
        }

        /** Counts a call's units as demand and allows it from the lease if they are left. */
        synchronized boolean tryUse(long now, int units) {
            roll(now);
            callsThisWindow += units;
            return useExactly(units, now);
        }

        /** Allows a call from the lease if its units are left, and only then counts them as demand. */
        synchronized boolean tryUseLeased(long now, int units) {
            roll(now);
            if (!useExactly(units, now)) {
                return false;
            }
            callsThisWindow += units;
            return true;
        }

        /** Allows a call of {@code units} from the lease if that many are left, else takes none. */
        synchronized boolean useExactly(int units, long now) {
            if (now - expiresAt >= 0) {
                remaining = 0;
            }
            if (units > remaining) {
                return false;
            }
            remaining -= units;
            return true;
        }

        /**
         * How many calls the next lease takes for a take of {@code calls}: the key's other calls in the last one to
         * two windows, at most {@code cap}; none below two, where a lease would save little and an unused one would
         * cost the app a call of its quota.
         */
        synchronized int wanted(int calls, long now, int cap) {
            roll(now);
            int size = Math.min(cap, callsLastWindow + callsThisWindow - calls);
            return size < 2 ? 0 : size;
        }

        synchronized void add(int calls, long now) {
            remaining = (now - expiresAt < 0 ? remaining : 0) + calls;
            expiresAt = now + windowNanos;
        }

        private void roll(long now) {
            long elapsed = now - windowStart;
            if (elapsed >= windowNanos) {
                callsLastWindow = elapsed < 2 * windowNanos ? callsThisWindow : 0;
                callsThisWindow = 0;
                windowStart = now;
            }
        }
    }
}
