package io.imcore.message.webhook;

import java.time.Instant;
import java.util.List;

/**
 * An app's webhook endpoint (docs/webhooks.md): where its events go, whether each send asks it first (the
 * before-send hook) and how. {@code disabledAt} is set when deliveries kept failing past the give-up time.
 */
public record WebhookEndpoint(String appId, String url, List<String> events, boolean beforeSend, int hookTimeoutMs,
        boolean hookFailOpen, int batchSize, String secret, Instant disabledAt, String disabledReason) {

    /** Every event type, in {@link #events}. */
    public static final String ALL_EVENTS = "*";

    /** Whether events of {@code type} are delivered to it (a disabled endpoint still queues them). */
    public boolean wants(String type) {
        return events.contains(ALL_EVENTS) || events.contains(type);
    }
}
