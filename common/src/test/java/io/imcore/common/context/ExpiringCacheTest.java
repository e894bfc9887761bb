package io.imcore.common.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ExpiringCacheTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void keepsAnEntryForItsTimeOnly() {
        ExpiringCache<String, Integer> cache = new ExpiringCache<>(Duration.ofNanos(100), 10, now::get);
        cache.put("a", 1);
        now.addAndGet(99);
        assertEquals(1, cache.get("a"));
        now.addAndGet(1);
        assertNull(cache.get("a"), "expired at its time");
        assertNull(cache.get("never"));
    }

    @Test
    void zeroTimeKeepsNothing() {
        ExpiringCache<String, Integer> cache = new ExpiringCache<>(Duration.ZERO, 10, now::get);
        cache.put("a", 1);
        assertNull(cache.get("a"));
    }

    @Test
    void staysBoundedByStartingOverWhenFull() {
        ExpiringCache<Integer, Integer> cache = new ExpiringCache<>(Duration.ofSeconds(1), 3, now::get);
        for (int i = 0; i < 3; i++) {
            cache.put(i, i);
        }
        cache.put(3, 3);
        assertNull(cache.get(0), "cleared when full");
        assertEquals(3, cache.get(3));
    }
}
