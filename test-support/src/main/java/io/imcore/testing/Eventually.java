package io.imcore.testing;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls a condition of an asynchronous system until it holds, failing the test when it does not in time. */
public final class Eventually {

    private Eventually() {}

    public static void until(Duration timeout, String what, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
                last = null;
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what, last);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
    }
}
