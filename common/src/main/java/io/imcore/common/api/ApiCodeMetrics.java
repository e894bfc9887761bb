package io.imcore.common.api;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every API answer is HTTP 200, so the HTTP status metrics cannot show errors: this counts the envelope's code,
 * {@code imcore_api_responses_total{code="10013"}}.
 */
public class ApiCodeMetrics {

    private final MeterRegistry registry;

    public ApiCodeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @ServerResponseFilter
    public void count(ContainerResponseContext response) {
        if (response.getEntity() instanceof ApiResponse<?> envelope) {
            count(registry, envelope.code());
        }
    }

    /** Counts an answer given outside JAX-RS (a plain route). */
    public static void count(MeterRegistry registry, int code) {
        registry.counter("imcore.api.responses", "code", Integer.toString(code)).increment();
    }
}
