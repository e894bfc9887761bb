package io.imcore.common.throttle;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Optional;

/**
 * Rate limits shared by every replica: the generic cell rate algorithm (GCRA, ITU-T I.371; a token bucket written as
 * one timestamp). Each key keeps its "theoretical arrival time" {@code tat} in {@code throttle_buckets}; a call is
 * allowed when moving {@code tat} one interval on keeps it within {@code burst} intervals of now. Taking a call is
 * one auto-committed upsert (one round trip, the row locked only for that statement); a refused call reads the row
 * once more to say how long to wait. Time is the database's clock, so replicas with skewed clocks agree. A row whose
 * {@code tat} is past is the same as no row (a full bucket), which is what the purge deletes.
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

    public RateLimiter(Database database, ThrottleMetrics metrics) {
        this.database = database;
        this.metrics = metrics;
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
        long interval = limit.intervalMicros();
        long window = interval * limit.burst();
        return database.autoCommit(c -> {
            try (PreparedStatement take = c.prepareStatement(TAKE)) {
                take.setString(1, key);
                take.setLong(2, interval);
                take.setLong(3, interval);
                take.setLong(4, interval);
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
