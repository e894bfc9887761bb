package io.imcore.pushworker.batch;

import java.util.concurrent.TimeUnit;

/**
 * One rate limit on deliveries ({@code rate} or {@code app-rate} of a channel, docs/push-worker.md "Rate limits"): a
 * token bucket of {@code perSecond} deliveries per second holding at most one second's worth. A caller may take more
 * than is there (a batch of 1000 from a bucket of 500/s): the bucket goes into debt and the caller waits it off, so
 * large batches are paced rather than refused. It never blocks: {@link #reserve} says how long the caller waits
 * before sending (the sender pool waits it off without holding a thread). Thread-safe.
 */
final class DeliveryRateLimit {

    private final double ratePerNano;
    private final double capacity;
    private double tokens;
    private long refilledAt;

    DeliveryRateLimit(double perSecond) {
        this.ratePerNano = perSecond / TimeUnit.SECONDS.toNanos(1);
        this.capacity = perSecond;
        this.tokens = perSecond;
        this.refilledAt = System.nanoTime();
    }

    /** Takes {@code deliveries}: the nanoseconds until the bucket has paid them, 0 when it had them. */
    synchronized long reserve(int deliveries) {
        long now = System.nanoTime();
        tokens = Math.min(capacity, tokens + (now - refilledAt) * ratePerNano);
        refilledAt = now;
        tokens -= deliveries;
        return tokens >= 0 ? 0 : (long) (-tokens / ratePerNano);
    }
}
