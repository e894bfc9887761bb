package io.imcore.console.signin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

    private final SignInThrottle throttle = new SignInThrottle();

    SignInThrottleTest() {
        throttle.freeFailures = 3;
        throttle.maxDelay = Duration.ofSeconds(4);
    }

    @Test
    void theFreeFailuresCostNothingThenTheDelayDoublesUpToItsCap() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("192.0.2.1");
        }
        assertEquals(0, throttle.waitSeconds("192.0.2.1"));
        throttle.failed("192.0.2.1");
        assertEquals(1, throttle.waitSeconds("192.0.2.1"));
        throttle.failed("192.0.2.1");
        assertEquals(2, throttle.waitSeconds("192.0.2.1"));
        throttle.failed("192.0.2.1");
        throttle.failed("192.0.2.1");
        throttle.failed("192.0.2.1");
        long capped = throttle.waitSeconds("192.0.2.1");
        assertTrue(capped >= 3 && capped <= 4, "capped at max-delay: " + capped);
        assertEquals(0, throttle.waitSeconds("198.51.100.7"), "another address is not held back");
    }

    @Test
    void aSuccessClearsTheAddress() {
        for (int i = 0; i < 5; i++) {
            throttle.failed("192.0.2.2");
        }
        assertTrue(throttle.waitSeconds("192.0.2.2") > 0);
        throttle.succeeded("192.0.2.2");
        assertEquals(0, throttle.waitSeconds("192.0.2.2"));
    }
}
