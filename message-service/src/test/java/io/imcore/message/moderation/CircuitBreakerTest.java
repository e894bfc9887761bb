package io.imcore.message.moderation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final CircuitBreaker breaker = new CircuitBreaker(3, 100, now::get);

    @Test
    void opensAfterFailuresInARowAndASuccessInBetweenStartsTheCountAgain() {
        breaker.failed();
        breaker.failed();
        breaker.succeeded();
        breaker.failed();
        breaker.failed();
        assertTrue(breaker.allowsCall(), "two in a row since the success");
        breaker.failed();
        assertTrue(breaker.isOpen());
        assertFalse(breaker.allowsCall());
    }

    @Test
    void afterItsOpenTimeOneTrialCallGoesThroughWhichClosesOrReopensIt() {
        for (int i = 0; i < 3; i++) {
            breaker.failed();
        }
        now.addAndGet(99);
        assertFalse(breaker.allowsCall());
        now.addAndGet(1);
        assertTrue(breaker.allowsCall(), "the trial");
        assertFalse(breaker.allowsCall(), "only one trial at a time");
        breaker.failed();
        assertFalse(breaker.allowsCall(), "the failed trial opened it again");
        now.addAndGet(100);
        assertTrue(breaker.allowsCall(), "the next trial");
        breaker.succeeded();
        assertFalse(breaker.isOpen());
        assertTrue(breaker.allowsCall());
        assertTrue(breaker.allowsCall());
    }
}
