package io.imcore.throttle;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Throttling (docs/throttling.md). The defaults live in this module's {@code META-INF/microprofile-config.properties},
 * so every service starts from the same values and overrides them in its application.properties.
 */
@ConfigMapping(prefix = "im.throttle")
public interface ThrottleConfig {

    /** Addresses or CIDR ranges of the proxies (the gateway) whose {@code X-Forwarded-For} is believed. */
    Optional<List<String>> trustedProxies();

    /** Addresses or CIDR ranges exempt from the per-address limits (an app's own servers); per-account limits still apply. */
    Optional<List<String>> unlimitedAddresses();

    /** Wrong passwords per (app, login name). */
    Backoff loginAccount();

    /** Wrong passwords per (app, source address), whatever the account. */
    Backoff loginAddress();

    /** Self-registrations per (app, source address). */
    Rate registration();

    /**
     * Quotas by name: per app ({@code message-send}, {@code message-notify}, {@code push-notify}, ...) and per user of
     * an app ({@code message-send-per-user}).
     */
    Map<String, Rate> quota();

    /** How long a replica reuses an app's quota override read from the database. */
    Duration quotaOverrideTtl();

    /**
     * How long calls taken from a bucket ahead of demand stay usable by this replica ({@link RateLimiter}'s
     * leases); 0 takes every call from the database.
     */
    Duration leaseWindow();

    /**
     * How often a replica charges the calls its per-user quotas allowed to the shared buckets and learns the
     * others' ({@link UserQuotas}).
     */
    Duration settleInterval();

    /** How often {@link ThrottlePurge} deletes rows that hold nothing any more ({@code off} where there are none). */
    String purgeInterval();

    /** Failures free of delay, then delays doubling from {@code firstDelay} up to {@code maxDelay}. */
    interface Backoff {

        int freeFailures();

        Duration firstDelay();

        Duration maxDelay();

        /** A counter with no failure for this long starts again from zero. */
        Duration forgetAfter();

        /**
         * Consecutive failures after which the key is locked until an admin unlocks it (NIST SP 800-63B 5.2.2: at
         * most 100); 0 = never (the per-address counters: a shared address must never be locked for good).
         */
        @WithDefault("0")
        int lockoutAfter();
    }

    /** {@code limit} calls per {@code period} on average, at most {@code burst} at once (GCRA). */
    interface Rate {

        int limit();

        Duration period();

        int burst();
    }
}
