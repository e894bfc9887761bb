package io.imcore.common.context;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A small map whose entries are forgotten after a fixed time; bounded by clearing when full. A zero time turns it
 * off (nothing is kept).
 */
public final class ExpiringCache<K, V> {

    private record Entry<V>(V value, long expiresAtNanos) {}

    private final long ttlNanos;
    private final int maxEntries;
    private final LongSupplier nanoClock;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();

    public ExpiringCache(Duration ttl, int maxEntries) {
        this(ttl, maxEntries, System::nanoTime);
    }

    ExpiringCache(Duration ttl, int maxEntries, LongSupplier nanoClock) {
        this.ttlNanos = ttl.toNanos();
        this.maxEntries = maxEntries;
        this.nanoClock = nanoClock;
    }

    /** The value, or null when absent or expired. */
    public V get(K key) {
        Entry<V> entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        if (nanoClock.getAsLong() - entry.expiresAtNanos() >= 0) {
            entries.remove(key, entry);
            return null;
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
        entries.put(key, new Entry<>(value, nanoClock.getAsLong() + ttlNanos));
    }

    public void remove(K key) {
        entries.remove(key);
    }
}
