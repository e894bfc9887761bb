package io.imcore.common.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ExpiringCacheTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void keepsAnEntryForItsTimeOnly() {
        ExpiringCache<String, Integer> cache = new ExpiringCache<>(Duration.ofNanos(100), 10, null, now::get);
        cache.put("a", 1);
        now.addAndGet(99);
        assertEquals(1, cache.get("a"));
        now.addAndGet(1);
        assertNull(cache.get("a"), "expired at its time");
        assertNull(cache.get("never"));
    }

    @Test
    void anEntryReadInTheLastQuarterOfItsTimeIsHandedToTheRefresherOnce() {
        List<String> refreshes = new ArrayList<>();
        ExpiringCache<String, Integer> cache = new ExpiringCache<>(Duration.ofNanos(100), 10, refreshes::add, now::get);
        cache.put("a", 1);
        now.addAndGet(75);
        assertEquals(1, cache.get("a"));
        assertEquals(List.of(), refreshes, "three quarters of its time left: not yet");
        now.addAndGet(1);
        assertEquals(1, cache.get("a"), "the value is still served while it is refreshed");
        assertEquals(1, cache.get("a"));
        assertEquals(List.of("a"), refreshes, "once per entry");
        cache.put("a", 2); // what the refresher loaded
        now.addAndGet(50);
        assertEquals(2, cache.get("a"), "the refreshed entry outlives the first one");
        now.addAndGet(30);
        cache.get("a");
        assertEquals(List.of("a", "a"), refreshes);
        now.addAndGet(20);
        assertNull(cache.get("a"), "not refreshed: it expires at its time");
    }

    @Test
    void zeroTimeKeepsNothing() {
        ExpiringCache<String, Integer> cache = new ExpiringCache<>(Duration.ZERO, 10, null, now::get);
        cache.put("a", 1);
        assertNull(cache.get("a"));
    }

    @Test
    void staysBoundedByStartingOverWhenFull() {
        ExpiringCache<Integer, Integer> cache = new ExpiringCache<>(Duration.ofSeconds(1), 3, null, now::get);
        for (int i = 0; i < 3; i++) {
            cache.put(i, i);
        }
        cache.put(3, 3);
        assertNull(cache.get(0), "cleared when full");
        assertEquals(3, cache.get(3));
    }
}
