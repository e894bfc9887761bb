package io.imcore.message.webhook;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of POST /app/webhook (docs/webhooks.md "Configuration"); absent fields take their defaults. */
@RegisterForReflection
public record WebhookSettings(String url, List<String> events, Boolean beforeSend, Integer hookTimeoutMs,
        Boolean hookFailOpen, Integer batchSize) {}
