package io.imcore.message.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Queues an event of message-service's own changes (groups: they have no topic) for the app's endpoint, in the
 * transaction of the change, so it is delivered if and only if the change commits. {@code orderingKey} puts it in
 * order with the events that share it (a group's events use its conversation's key, as its messages do).
 */
@ApplicationScoped
public class WebhookEventQueue {

    private final Database database;
    private final WebhookEndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final ObjectMapper mapper;

    public WebhookEventQueue(Database database, WebhookEndpointStore endpoints, DeliveryStore deliveries,
            ObjectMapper mapper) {
        this.database = database;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.mapper = mapper;
    }

    /** Within the caller's transaction: nothing when the app has no endpoint or does not subscribe to {@code type}. */
    public void queue(String appId, String type, String orderingKey, ObjectNode data) {
        database.inTransaction(c -> {
            if (endpoints.find(c, appId).filter(endpoint -> endpoint.wants(type)).isPresent()) {
                deliveries.queue(c, List.of(new DeliveryStore.Queued(appId, "evt_" + UUID.randomUUID(), type,
                        orderingKey, WebhookEvents.body(mapper, type, Instant.now(), data))));
            }
            return null;
        });
    }

    public ObjectNode data() {
        return mapper.createObjectNode();
    }
}
