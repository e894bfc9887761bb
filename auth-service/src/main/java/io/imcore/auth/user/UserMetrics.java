package io.imcore.auth.user;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** The users' business counter on /q/metrics (Prometheus names end in _total). */
@ApplicationScoped
public class UserMetrics {

    private final MeterRegistry registry;

    public UserMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** {@code imcore_auth_users_registered_total} */
    public void userRegistered() {
        registry.counter("imcore.auth.users.registered").increment();
    }
}
