package io.imcore.common.throttle;

import io.imcore.common.store.Database;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
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

    private final Database database;
    private final ThrottleMetrics metrics;
    private final Timer takes;
    /** Per key with a take in flight: the calls queued behind it, the first of which takes next for all. */
    private final ConcurrentHashMap<String, List<Call>> lines = new ConcurrentHashMap<>();

    /** One call waiting for its answer, or for its turn to take for everyone queued with it. */
    private static final class Call {
        final CompletableFuture<Optional<Duration>> answer = new CompletableFuture<>();
        final CompletableFuture<Void> turn = new CompletableFuture<>();
    }

    public RateLimiter(Database database, ThrottleMetrics metrics, MeterRegistry registry) {
        this.database = database;
        this.metrics = metrics;
        this.takes = Timer.builder("imcore.throttle.take")
                .description("one call's take from a bucket, its wait for a combined take included").register(registry);
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
        long start = System.nanoTime();
        Call call = new Call();
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
                takeForQueued(key, limit);
            }
            return call.answer.join();
        } catch (CompletionException e) { // the take failed (say the database is away): its own exception
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        } finally {
            takes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** This call's turn: takes for every call queued on the key now (itself included), then hands the turn on. */
    private void takeForQueued(String key, RateLimit limit) {
        List<Call> group = new ArrayList<>();
        lines.computeIfPresent(key, (k, queued) -> {
            group.addAll(queued);
            queued.clear();
            return queued;
        });
        try {
            Optional<Duration> wait = takeCalls(key, limit, group.size());
            if (wait.isEmpty() || group.size() == 1) {
                group.forEach(call -> call.answer.complete(wait));
            } else {
                for (Call call : group) { // all together did not fit: as many as fit, one by one
                    call.answer.complete(takeCalls(key, limit, 1));
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

    /** Takes {@code calls} calls at once: empty when all fit, else how long until one call would. */
    private Optional<Duration> takeCalls(String key, RateLimit limit, int calls) {
        long interval = limit.intervalMicros();
        long window = interval * limit.burst();
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
                    // the call fits once tat + interval is back within the window
                    return Optional.of(Duration.ofNanos(Math.max(1, ahead + interval - window) * 1000));
                }
            }
        });
    }
}
