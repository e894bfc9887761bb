package io.imcore.pushworker.channel;

import java.time.Duration;

/**
 * What became of one target in one provider call.
 *
 * @param kind       accepted, rejected for good, or worth retrying
 * @param reason     the provider's reason (error code or name) for logs; null when accepted
 * @param retryAfter for {@link Kind#RETRY}: the wait the provider asked for (Retry-After), or null
 */
public record Outcome(Kind kind, String reason, Duration retryAfter) {

    public enum Kind {
        /** The provider took it for delivery: counted as sent. */
        ACCEPTED,
        /** The token is invalid, unregistered or not of this app: the token is unbound, never retried. */
        REJECTED,
        /** Transient (overload, 5xx, timeout, connection lost) or credentials refused: retried with backoff. */
        RETRY,
        /**
         * Failed for good, but not the token's fault (the provider cannot carry this message, e.g. a message kind it
         * does not offer, or a payload it refuses whatever the device): counted as failed at once, nothing unbound.
         */
        FAILED
    }

    public static final Outcome ACCEPTED = new Outcome(Kind.ACCEPTED, null, null);

    public static Outcome rejected(String reason) {
        return new Outcome(Kind.REJECTED, reason, null);
    }

    public static Outcome failed(String reason) {
        return new Outcome(Kind.FAILED, reason, null);
    }

    public static Outcome retry(String reason) {
        return new Outcome(Kind.RETRY, reason, null);
    }

    public static Outcome retry(String reason, Duration retryAfter) {
        return new Outcome(Kind.RETRY, reason, retryAfter);
    }
}
