package io.imcore.common.api;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Every API answer is HTTP 200, so the HTTP status metrics cannot show errors: this counts the envelope's code,
 * {@code imcore_api_responses_total{code="10013",route="other"}}. The routes with a service level objective
 * (docs/operations.md "SLOs") are named in {@code route}; every other path counts as {@code other}, which keeps the
 * series few whatever paths callers invent.
 */
public class ApiCodeMetrics {

    /** The calls whose availability is an objective: chat sends, system notifications, push accepts, tokens. */
    static final Set<String> OBJECTIVE_ROUTES =
            Set.of("/message/send", "/message/notify", "/push/notify", "/token/id", "/token/login", "/token/user");

    private final MeterRegistry registry;

    public ApiCodeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @ServerResponseFilter
    public void count(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getEntity() instanceof ApiResponse<?> envelope) {
            count(registry, request.getUriInfo().getPath(), envelope.code());
        }
    }

    /** Counts an answer to a call of {@code path}, also for answers given outside JAX-RS (a plain route). */
    public static void count(MeterRegistry registry, String path, int code) {
        String route = OBJECTIVE_ROUTES.contains(path) ? path : "other";
        registry.counter("imcore.api.responses", "code", Integer.toString(code), "route", route).increment();
    }
}
