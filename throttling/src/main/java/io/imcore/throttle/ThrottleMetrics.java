package io.imcore.throttle;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code imcore_throttled_total{route="/token/login",limit="account"}}: calls answered 10015, per route and limit. */
@ApplicationScoped
public class ThrottleMetrics {

    private final MeterRegistry registry;

    public ThrottleMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void throttled(String route, String limit) {
        registry.counter("imcore.throttled", "route", route, "limit", limit).increment();
    }
}
