package io.imcore.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.throttle.RateLimit;
import io.imcore.throttle.RateLimiter;
import io.imcore.throttle.ThrottleMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link RateLimiter}'s leases (docs/throttling.md "Leases") against the real buckets' table. A limiter of the test's
 * own has a 10-minute lease window, so that a limit of one call a minute leases (at most 10 calls, a quarter of the
 * burst) while its bucket does not refill during the test: every count below is exact.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class RateLimiterLeaseTest {

    private static final RateLimit ONE_A_MINUTE_BURST_100 = new RateLimit(1, Duration.ofMinutes(1), 100);

    @Inject
    Database database;
    @Inject
    ThrottleMetrics metrics;
    @Inject
    MeterRegistry registry;

    private RateLimiter limiter() {
        return new RateLimiter(database, metrics, registry, Duration.ofMinutes(10));
    }

    private double bucketWrites() {
        return registry.get("imcore.throttle.bucket.writes").counter().count();
    }

    private static String newKey() {
        return "test:lease:" + UUID.randomUUID();
    }

    @Test
    void sequentialCallsAreTakenInLeasesAndGetExactlyTheBurst() {
        RateLimiter limiter = limiter();
        String key = newKey();
        double before = bucketWrites();
        for (int i = 1; i <= 100; i++) {
            assertEquals(Optional.empty(), limiter.acquire(key, ONE_A_MINUTE_BURST_100), "call " + i + " of the burst");
        }
        double writes = bucketWrites() - before;
        Optional<Duration> refused = limiter.acquire(key, ONE_A_MINUTE_BURST_100);
        assertTrue(refused.isPresent(), "the 101st call: the leases took nothing beyond the burst");
        assertTrue(refused.get().compareTo(Duration.ofSeconds(50)) > 0, "about a minute to wait: " + refused.get());
        // calls 1 and 2 take alone, then each take leases the calls since (at most 10): ~14 takes, not 100
        assertTrue(writes <= 20, "takes from the database for 100 calls: " + writes);
    }

    @Test
    void concurrentCallsWithLeasesGetExactlyTheBurst() throws Exception {
        RateLimiter limiter = limiter();
        RateLimit burst25 = new RateLimit(1, Duration.ofMinutes(1), 25);
        String key = newKey();
        ExecutorService pool = Executors.newFixedThreadPool(30);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Optional<Duration>>> answers = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return limiter.acquire(key, burst25);
            }));
        }
        go.countDown();
        int allowed = 0;
        for (Future<Optional<Duration>> answer : answers) {
            allowed += answer.get(60, TimeUnit.SECONDS).isEmpty() ? 1 : 0;
        }
        pool.shutdown();
        assertEquals(25, allowed, "the burst, no more, no less: no leased call left unused while callers were refused");
        assertTrue(limiter.acquire(key, burst25).isPresent(), "nothing left over for a later call");
    }

    @Test
    void aLimitOfLessThanTwoCallsAWindowNeverLeases() {
        // the service's own limiter, 50 ms window: one call a minute allows no call in a window
        RateLimiter limiter = new RateLimiter(database, metrics, registry, Duration.ofMillis(50));
        String key = newKey();
        double before = bucketWrites();
        for (int i = 0; i < 20; i++) {
            assertEquals(Optional.empty(), limiter.acquire(key, ONE_A_MINUTE_BURST_100));
        }
        assertEquals(20, bucketWrites() - before, "one take per call");
    }
}
