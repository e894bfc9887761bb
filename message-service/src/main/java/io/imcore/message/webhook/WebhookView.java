package io.imcore.message.webhook;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;

/** GET /app/webhook: the configuration with its secret masked, and whether deliveries stopped (and why). */
@RegisterForReflection
public record WebhookView(String url, List<String> events, boolean beforeSend, int hookTimeoutMs,
        boolean hookFailOpen, int batchSize, String secret, boolean disabled, Instant disabledAt,
        String disabledReason) {

    static WebhookView of(WebhookEndpoint endpoint) {
        return new WebhookView(endpoint.url(), endpoint.events(), endpoint.beforeSend(), endpoint.hookTimeoutMs(),
                endpoint.hookFailOpen(), endpoint.batchSize(), WebhookSignature.masked(endpoint.secret()),
                endpoint.disabledAt() != null, endpoint.disabledAt(), endpoint.disabledReason());
    }
}
