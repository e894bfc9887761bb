package io.imcore.message.webhook;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Webhooks per app ({@code im.webhooks.*}, docs/webhooks.md "Configuration"). */
@ConfigMapping(prefix = "im.webhooks")
public interface WebhookConfig {

    /**
     * Accept endpoint URLs on loopback addresses (the local stack's receiver runs beside the services). Private,
     * link-local and metadata addresses are refused whatever this says.
     */
    @WithDefault("false")
    boolean loopbackAllowed();

    /** The AES-256 key (base64) that seals the apps' signing secrets at rest; required ({@link WebhookSecrets}). */
    Optional<String> secretKey();

    /** How long an app's endpoint and word filter are reused from memory: a change reaches every replica within it. */
    @WithDefault("5S")
    Duration cacheTtl();

    /** The before-send hook (docs/webhooks.md "The before-send hook"). */
    Hook hook();

    interface Hook {

        /** Calls of one app's hook in flight at most; a send over it is decided as a failed call (fail open or closed). */
        @WithDefault("64")
        int maxConcurrent();

        /** Failed calls in a row (errors, timeouts) that open an app's breaker. */
        @WithDefault("5")
        int breakerFailures();

        /** How long an open breaker decides without calling; then one trial call closes or reopens it. */
        @WithDefault("10S")
        Duration breakerOpenFor();
    }

    /** Events out (docs/webhooks.md "Events"). */
    Delivery delivery();

    interface Delivery {

        /** Consume the event topics and deliver (off: nothing is queued nor sent). */
        @WithDefault("true")
        boolean enabled();

        /** One request's deadline, connection included. */
        @WithDefault("5S")
        Duration timeout();

        /** Deliveries claimed per round of the dispatcher (sent concurrently). */
        @WithDefault("100")
        int claimSize();

        /** How often the dispatcher looks for due deliveries when it found none. */
        @WithDefault("200MS")
        Duration pollInterval();

        /** The first retry's wait; each next one doubles it, up to {@link #retryMax()}, with jitter. */
        @WithDefault("5S")
        Duration retryInitial();

        @WithDefault("1H")
        Duration retryMax();

        /** A delivery still failing this long after it was queued disables its endpoint (alert and console banner). */
        @WithDefault("24H")
        Duration giveUpAfter();

        /** The delivery log (and whatever a disabled endpoint left undelivered) is kept this long. */
        @WithDefault("7D")
        Duration retention();

        /** Characters of the receiver's answer kept in the delivery log. */
        @WithDefault("200")
        int answerExcerpt();
    }
}
