package io.imcore.message.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.context.ExpiringCache;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Queues the events of message-service's own changes (messages, their recalls and edits, read positions, groups)
 * for the app's endpoint, in the transaction of the change, so it is delivered if and only if the change commits,
 * and each conversation's events take their places in one order: the order of their transactions' row locks on the
 * conversation's webhook head ({@link DeliveryStore#queue}). {@code orderingKey} is the conversation's
 * ({@link #conversationKey}).
 * <p>
 * Which events an app takes is kept in memory per app for {@code im.webhooks.cache-ttl} (this replica forgets it
 * when the app saves its endpoint), so a change of an app without a subscription to its event costs no statement.
 */
@ApplicationScoped
public class WebhookEventQueue {

    /** A stored message, as {@code message.created} describes it (docs/webhooks.md "Events"). */
    public record CreatedMessage(String appId, long conversationId, long msgId, String kind, long fromUserId,
            long toId, int contentType, String content, String attachment, String config, String ext,
            long createdMs) {}

    private final Database database;
    private final WebhookEndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final ObjectMapper mapper;
    /** The event types each app's endpoint takes; empty when it has none. */
    private final ExpiringCache<String, Set<String>> subscriptions;

    public WebhookEventQueue(Database database, WebhookEndpointStore endpoints, DeliveryStore deliveries,
            ObjectMapper mapper, WebhookConfig config) {
        this.database = database;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.mapper = mapper;
        this.subscriptions = new ExpiringCache<>(config.cacheTtl(), 100_000);
    }

    /** Orders an event with the other events of its conversation (message-service's conversation id). */
    public static String conversationKey(String appId, long conversationId) {
        return appId + ":" + conversationId;
    }

    /** Within the caller's transaction: nothing when the app has no endpoint or does not subscribe to {@code type}. */
    public void queue(String appId, String type, String orderingKey, ObjectNode data) {
        database.inTransaction(c -> {
            queue(c, appId, type, orderingKey, data);
            return null;
        });
    }

    /** {@link #queue(String, String, String, ObjectNode)} on the caller's connection. */
    public void queue(Connection c, String appId, String type, String orderingKey, ObjectNode data)
            throws SQLException {
        if (wants(c, appId, type)) {
            deliveries.queue(c, List.of(new DeliveryStore.Queued(appId, "evt_" + UUID.randomUUID(), type,
                    orderingKey, WebhookEvents.body(mapper, type, Instant.now(), data))));
        }
    }

    /**
     * {@code message.created} of the messages stored in the caller's transaction, for the apps that subscribe, in
     * one statement whatever their number (none when no app of theirs subscribes); the event id is the message's.
     */
    public void messagesCreated(Connection c, List<CreatedMessage> messages) throws SQLException {
        List<DeliveryStore.Queued> queued = new ArrayList<>();
        for (CreatedMessage message : messages) {
            if (!wants(c, message.appId(), WebhookEvents.MESSAGE_CREATED)) {
                continue;
            }
            ObjectNode data = mapper.createObjectNode();
            data.put("msg_id", message.msgId());
            data.put("kind", message.kind());
            data.put("from_user_id", message.fromUserId());
            data.put("to_id", message.toId());
            data.put("content_type", message.contentType());
            data.put("content", message.content());
            data.put("attachment", message.attachment());
            data.put("config", message.config());
            data.put("ext", message.ext());
            data.put("created_ms", message.createdMs());
            queued.add(new DeliveryStore.Queued(message.appId(), "evt_msg_created_" + message.msgId(),
                    WebhookEvents.MESSAGE_CREATED, conversationKey(message.appId(), message.conversationId()),
                    WebhookEvents.body(mapper, WebhookEvents.MESSAGE_CREATED, Instant.ofEpochMilli(message.createdMs()),
                            data)));
        }
        deliveries.queue(c, queued);
    }

    /** Whether the app's endpoint takes events of {@code type} (a disabled one still queues them). */
    public boolean wants(Connection c, String appId, String type) throws SQLException {
        Set<String> types = subscriptions.get(appId);
        if (types == null) {
            types = endpoints.events(c, appId);
            subscriptions.put(appId, types);
        }
        return types.contains(WebhookEndpoint.ALL_EVENTS) || types.contains(type);
    }

    /** This replica reads the app's subscriptions again at once; the others within {@code im.webhooks.cache-ttl}. */
    void forget(@Observes WebhookEndpointSaved saved) {
        subscriptions.remove(saved.appId());
    }

    public ObjectNode data() {
        return mapper.createObjectNode();
    }
}
