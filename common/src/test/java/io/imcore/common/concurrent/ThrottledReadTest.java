package io.imcore.common.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ThrottledReadTest {

    @Test
    void readsOncePerIntervalHoweverOftenAsked() {
        AtomicInteger reads = new AtomicInteger();
        ThrottledRead<Integer> value = new ThrottledRead<>("test", Duration.ofHours(1), reads::incrementAndGet);
        assertEquals(Optional.of(1), value.get());
        assertEquals(Optional.of(1), value.get());
        assertEquals(1, reads.get());
    }

    @Test
    void aFailedReadIsEmptyAndTheNextReadTriesAgain() {
        AtomicInteger reads = new AtomicInteger();
        ThrottledRead<Integer> value = new ThrottledRead<>("test", Duration.ZERO, () -> {
            if (reads.incrementAndGet() == 2) {
                throw new IllegalStateException("database down");
            }
            return reads.get();
        });
        assertEquals(Optional.of(1), value.get());
        assertEquals(Optional.empty(), value.get(), "not the stale 1");
        assertEquals(Optional.of(3), value.get());
    }
}
