package io.imcore.simulators;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Errors a simulator answers with, on demand. Two kinds of control:
 * <ul>
 *   <li>injected request faults: the next {@code count} protocol requests fail as a whole, with the provider's own
 *       answer for that kind ({@link #next()});</li>
 *   <li>device tokens by prefix, so a test, the smoke test or the benchmark can mix them into a normal audience:
 *       a token starting with {@value #INVALID_PREFIX} is answered as an invalid/unregistered token (permanent);
 *       one starting with {@value #FLAKY_PREFIX} fails transiently the first time it is seen, then is accepted
 *       (only where the protocol has per-token results).</li>
 * </ul>
 */
public final class Faults {

    public static final String INVALID_PREFIX = "invalid";
    public static final String FLAKY_PREFIX = "flaky";

    public enum Kind {
        /** The provider's "try again later": overloaded, unavailable, quota exceeded (5xx, 429 or its code). */
        TRANSIENT,
        /** The provider refuses our credentials (bad signature, expired or unknown auth token, wrong key). */
        AUTH,
        /**
         * A spent quota with a long wait: the provider's answer that means "retry in an hour or tomorrow" (only
         * where the protocol can say how long: FCM's 429 with Retry-After).
         */
        QUOTA_SPENT
    }

    private final Map<Kind, AtomicInteger> pending = new ConcurrentHashMap<>();
    private final Set<String> flakySeen = ConcurrentHashMap.newKeySet();

    /** The next {@code count} protocol requests fail with {@code kind}. */
    public void inject(Kind kind, int count) {
        pending.computeIfAbsent(kind, k -> new AtomicInteger()).addAndGet(count);
    }

    /** The fault this request must answer with, or null; consumes one injected fault. AUTH is taken first. */
    public Kind next() {
        for (Kind kind : new Kind[] {Kind.AUTH, Kind.QUOTA_SPENT, Kind.TRANSIENT}) {
            AtomicInteger left = pending.get(kind);
            if (left != null && left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
                return kind;
            }
        }
        return null;
    }

    public static boolean isInvalid(String token) {
        return token != null && token.startsWith(INVALID_PREFIX);
    }

    /** True for a flaky token seen for the first time (it then fails transiently); false afterwards and for others. */
    public boolean failsTransiently(String token) {
        return token != null && token.startsWith(FLAKY_PREFIX) && flakySeen.add(token);
    }

    public void reset() {
        pending.clear();
        flakySeen.clear();
    }
}
