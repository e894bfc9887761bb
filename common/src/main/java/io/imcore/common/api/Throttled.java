package io.imcore.common.api;

import java.time.Duration;

/**
 * 10015: a limit was reached. The message says when to try again; the exception mapper also puts the wait into an
 * HTTP {@code Retry-After} header (RFC 9110 section 10.2.3, delay-seconds) beside the envelope.
 */
public class Throttled extends ApiException {

    private final long retryAfterSeconds;

    public Throttled(Duration wait) {
        this(Math.max(1, (wait.toMillis() + 999) / 1000));
    }

    private Throttled(long retryAfterSeconds) {
        super(ErrorCode.TOO_MANY_REQUESTS, "too many requests: retry after " + retryAfterSeconds
                + (retryAfterSeconds == 1 ? " second" : " seconds"));
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Whole seconds, rounded up: a client that waits this long is not refused for the same reason. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
