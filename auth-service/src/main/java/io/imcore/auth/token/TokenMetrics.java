package io.imcore.auth.token;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** The token operations' business counters on /q/metrics (Prometheus names end in _total). */
@ApplicationScoped
public class TokenMetrics {

    private final MeterRegistry registry;

    public TokenMetrics(MeterRegistry registry) {
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
}
