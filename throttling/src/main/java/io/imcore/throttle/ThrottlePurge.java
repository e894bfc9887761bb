package io.imcore.throttle;

import io.imcore.common.store.ChunkedDelete;
import io.imcore.common.store.Database;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Deletes throttle rows that no longer hold anything: counters past their delay and older than {@code forget-after},
 * buckets that are full again. Without it every address that ever called would keep a row. Idempotent: replicas
 * may run it at the same time.
 */
@ApplicationScoped
public class ThrottlePurge {

    private final Database database;
    private final ThrottleConfig config;

    public ThrottlePurge(Database database, ThrottleConfig config) {
        this.database = database;
        this.config = config;
    }

    @Scheduled(every = "${im.throttle.purge-interval}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purge() {
        Duration forget = config.loginAccount().forgetAfter().compareTo(config.loginAddress().forgetAfter()) > 0
                ? config.loginAccount().forgetAfter() : config.loginAddress().forgetAfter();
        database.autoCommit(c -> ChunkedDelete.delete(c, "throttle_failures",
                "blocked_until < now() and last_failure_at < now() - ? * interval '1 millisecond'", 1,
                (ps, first) -> ps.setLong(first, forget.toMillis()), ChunkedDelete.CHUNK)
                + ChunkedDelete.delete(c, "throttle_buckets", "tat < now()", 0, (ps, first) -> { }, ChunkedDelete.CHUNK));
    }
}
