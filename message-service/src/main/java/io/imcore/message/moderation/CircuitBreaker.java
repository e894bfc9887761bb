package io.imcore.message.moderation;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * One app's breaker in front of its before-send hook: {@code failures} failed calls in a row open it; while open,
 * sends are decided without calling (as a failed call: the app's fail-open or fail-closed); after {@code openNanos}
 * one trial call is let through, whose success closes it and whose failure opens it again. Thread-safe, lock-free.
 */
final class CircuitBreaker {

    private static final long CLOSED = -1;

    private final int failures;
    private final long openNanos;
    private final LongSupplier nanoClock;
    private final AtomicInteger failedInARow = new AtomicInteger();
    /** When it opened ({@link #CLOSED} when closed); a trial call moves it forward so that only one goes through. */
    private final AtomicLong openedAt = new AtomicLong(CLOSED);

    CircuitBreaker(int failures, long openNanos, LongSupplier nanoClock) {
        this.failures = failures;
        this.openNanos = openNanos;
        this.nanoClock = nanoClock;
    }

    /** Whether a call may go out now: closed, or open long enough for this call to be the one trial. */
    boolean allowsCall() {
        long opened = openedAt.get();
        if (opened == CLOSED) {
            return true;
        }
        long now = nanoClock.getAsLong();
        // the trial claims the breaker for another open period: concurrent callers keep being decided without a call
        return now - opened >= openNanos && openedAt.compareAndSet(opened, now);
    }

    boolean isOpen() {
        return openedAt.get() != CLOSED;
    }

    void succeeded() {
        failedInARow.set(0);
        openedAt.set(CLOSED);
    }

    void failed() {
        if (failedInARow.incrementAndGet() >= failures) {
            openedAt.set(nanoClock.getAsLong());
        }
    }
}
