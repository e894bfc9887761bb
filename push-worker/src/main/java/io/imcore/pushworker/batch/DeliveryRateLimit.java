package io.imcore.pushworker.batch;

import java.util.concurrent.TimeUnit;

/**
 * A token bucket of {@code rate} permits per second holding at most one second's worth. A caller may take more
 * than is there (a batch of 1000 from a bucket of 500/s): the bucket goes into debt and the caller waits it off,
 * so large batches are paced rather than refused. It never blocks: {@link #reserve} says how long the caller waits
 * before sending (the sender pool waits it off without holding a thread). Thread-safe.
 */
final class RateLimiter {

    private final double ratePerNano;
    private final double capacity;
    private double tokens;
    private long refilledAt;

    RateLimiter(double perSecond) {
        this.ratePerNano = perSecond / TimeUnit.SECONDS.toNanos(1);
        this.capacity = perSecond;
        this.tokens = perSecond;
        this.refilledAt = System.nanoTime();
    }

    /** Takes {@code permits}: the nanoseconds until the bucket has paid them, 0 when it had them. */
    synchronized long reserve(int permits) {
        long now = System.nanoTime();
        tokens = Math.min(capacity, tokens + (now - refilledAt) * ratePerNano);
        refilledAt = now;
        tokens -= permits;
        return tokens >= 0 ? 0 : (long) (-tokens / ratePerNano);
    }
}
