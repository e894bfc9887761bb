package io.imcore.common.context;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A small map whose entries are forgotten after a fixed time; bounded by clearing when full. A zero time turns it
 * off (nothing is kept). With a refresher, an entry read in the last quarter of its time is handed to it once, to be
 * loaded again and put before it expires: a key in use then never expires on its readers, while no value is
 * older than the time.
 */
public final class ExpiringCache<K, V> {

    private record Entry<V>(V value, long expiresAtNanos, AtomicBoolean refreshAsked) {}

    private final long ttlNanos;
    private final int maxEntries;
    private final Consumer<K> refresher;
    private final LongSupplier nanoClock;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

    public ExpiringCache(Duration ttl, int maxEntries) {
        this(ttl, maxEntries, null, System::nanoTime);
    }

    /** {@code refresher} must not block: it is called on the reader's thread, which may be an event loop. */
    public ExpiringCache(Duration ttl, int maxEntries, Consumer<K> refresher) {
        this(ttl, maxEntries, refresher, System::nanoTime);
    }

    ExpiringCache(Duration ttl, int maxEntries, Consumer<K> refresher, LongSupplier nanoClock) {
        this.ttlNanos = ttl.toNanos();
        this.maxEntries = maxEntries;
        this.refresher = refresher;
        this.nanoClock = nanoClock;
    }

    /** The value, or null when absent or expired. */
    public V get(K key) {
        Entry<V> entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        long left = entry.expiresAtNanos() - nanoClock.getAsLong();
        if (left <= 0) {
            entries.remove(key, entry);
            return null;
        }
        if (refresher != null && left < ttlNanos / 4 && entry.refreshAsked().compareAndSet(false, true)) {
            refresher.accept(key);
        }
        return entry.value();
    }

    public void put(K key, V value) {
        if (ttlNanos <= 0) {
            return;
        }
        if (entries.size() >= maxEntries) {
            entries.clear();
        }
        entries.put(key, new Entry<>(value, nanoClock.getAsLong() + ttlNanos, new AtomicBoolean()));
    }
}
