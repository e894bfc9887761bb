package io.imcore.common.concurrent;

import java.util.function.Supplier;

/**
 * A try at serving a call on the Vert.x event loop, where nothing may block: within {@link #run}, whatever would
 * block (a query, a wait in a queue, a token not verified before) calls {@link #refuseBlocking()} first, which
 * throws {@link WouldBlock}; the caller then serves the call again on a worker thread. A call whose caches are warm
 * and whose quota is leased is thus answered without a worker thread's hand-off (the share:
 * {@code imcore_http_plain_calls_total}). Work run in an attempt must make no change before its last possible refusal, so that the second
 * run does not repeat it (the quota taken is the exception, and the caller carries it over).
 */
public final class NonBlockingAttempt {

    /** Thrown where an attempt would block; carries no stack trace, as it is control flow, not a failure. */
    public static final class WouldBlock extends RuntimeException {
        private static final WouldBlock INSTANCE = new WouldBlock();

        private WouldBlock() {
            super("would block the event loop", null, false, false);
        }
    }

    private static final ThreadLocal<Boolean> ACTIVE = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private NonBlockingAttempt() {
    }

    /** Runs {@code work} as an attempt: it throws {@link WouldBlock} where it would have blocked. */
    public static <T> T run(Supplier<T> work) {
        ACTIVE.set(Boolean.TRUE);
        try {
            return work.get();
        } finally {
            ACTIVE.set(Boolean.FALSE);
        }
    }

    /** Whether the current thread is in an attempt. */
    public static boolean active() {
        return ACTIVE.get();
    }

    /** Call before anything that blocks: throws {@link WouldBlock} in an attempt. */
    public static void refuseBlocking() {
        if (ACTIVE.get()) {
            throw WouldBlock.INSTANCE;
        }
    }
}
