package io.imcore.common.concurrent;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A value read with a query, read again at most once per interval however often it is asked for: what a gauge needs
 * whose every Prometheus scrape would otherwise query the database. A failed read is empty until the next one
 * succeeds (the gauge shows NaN: unknown, not a stale figure).
 */
public final class ThrottledRead<T> {

    private static final Logger LOG = Logger.getLogger(ThrottledRead.class);

    private final String what;
    private final long intervalNanos;
    private final Supplier<T> read;
    private Optional<T> value = Optional.empty();
    private long readAt;
    private boolean everRead;

    public ThrottledRead(String what, Duration interval, Supplier<T> read) {
        this.what = what;
        this.intervalNanos = interval.toNanos();
        this.read = read;
    }

    public synchronized Optional<T> get() {
        long now = System.nanoTime();
        if (!everRead || now - readAt >= intervalNanos) {
            everRead = true;
            readAt = now;
            try {
                value = Optional.ofNullable(read.get());
            } catch (RuntimeException e) {
                LOG.debugf(e, "%s not read", what);
                value = Optional.empty();
            }
        }
        return value;
    }
}
