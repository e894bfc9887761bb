package io.imcore.throttle;

import java.time.Duration;

/** {@code limit} calls per {@code period} on average, at most {@code burst} at once. */
public record RateLimit(int limit, Duration period, int burst) {

    public RateLimit {
        if (limit < 1 || burst < 1 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a rate limit needs limit >= 1, burst >= 1 and a positive period");
        }
    }

    public static RateLimit of(ThrottleConfig.Rate rate) {
        return new RateLimit(rate.limit(), rate.period(), rate.burst());
    }

    /** The time one call uses up: the bucket gains one call back every interval. */
    long intervalMicros() {
        return Math.max(1, period.toNanos() / 1000 / limit);
    }
}
