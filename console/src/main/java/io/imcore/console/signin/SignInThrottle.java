package io.imcore.console.signin;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Failed sign-ins per source address: after {@code im.console.sign-in.free-failures} failures each further attempt
 * waits a delay that doubles from one second up to {@code max-delay} (the services' own login throttle does the
 * same per address, docs/throttling.md). A success clears the address; an address quiet for an hour is forgotten.
 */
@ApplicationScoped
public class SignInThrottle {

    private record Failures(int count, Instant last, Instant notBefore) { }

    private static final Duration FORGET_AFTER = Duration.ofHours(1);

    private final Map<String, Failures> byAddress = new ConcurrentHashMap<>();
    private final Clock clock = Clock.systemUTC();

    @ConfigProperty(name = "im.console.sign-in.free-failures")
    int freeFailures;
    @ConfigProperty(name = "im.console.sign-in.max-delay")
    Duration maxDelay;

    /** Seconds the address must still wait before a new attempt; 0 when it may try now. */
    public long waitSeconds(String address) {
        Failures failures = byAddress.get(address);
        if (failures == null) {
            return 0;
        }
        Duration left = Duration.between(clock.instant(), failures.notBefore());
        return left.isNegative() || left.isZero() ? 0 : Math.max(1, (left.toMillis() + 999) / 1000);
    }

    public void failed(String address) {
        Instant now = clock.instant();
        byAddress.values().removeIf(f -> f.last().plus(FORGET_AFTER).isBefore(now));
        byAddress.compute(address, (key, previous) -> {
            int count = previous == null ? 1 : previous.count() + 1;
            int doublings = Math.max(0, count - freeFailures);
            Duration delay = doublings == 0 ? Duration.ZERO
                    : Duration.ofSeconds(1L << Math.min(doublings - 1, 20));
            if (delay.compareTo(maxDelay) > 0) {
                delay = maxDelay;
            }
            return new Failures(count, now, now.plus(delay));
        });
    }

    public void succeeded(String address) {
        byAddress.remove(address);
    }
}
