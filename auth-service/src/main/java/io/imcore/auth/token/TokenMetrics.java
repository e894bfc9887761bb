package io.imcore.auth.service;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** Business counters of auth-service on /q/metrics (Prometheus names end in _total). */
@ApplicationScoped
public class AuthMetrics {

    private final MeterRegistry registry;

    public AuthMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** {@code imcore_auth_tokens_issued_total{operation="id|login|user"}} */
    public void tokenIssued(String operation) {
        registry.counter("imcore.auth.tokens.issued", "operation", operation).increment();
    }

    /** {@code imcore_auth_logins_refused_total{reason="credentials|disabled"}} */
    public void loginRefused(String reason) {
        registry.counter("imcore.auth.logins.refused", "reason", reason).increment();
    }

    /** {@code imcore_auth_users_registered_total} */
    public void userRegistered() {
        registry.counter("imcore.auth.users.registered").increment();
    }
}
