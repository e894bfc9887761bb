package io.imcore.message.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.TopicFeeder;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Turns the topics' events into the deliveries of the apps that subscribed to them (connector channel
 * {@value #CHANNEL}, consumer group {@code message-service.webhooks}: the replicas share the partitions, as
 * push-worker's consumers do). One poll is queued in one transaction (common's {@link TopicFeeder}), in the topic's
 * order, so each conversation's events are queued in order; a replayed poll queues nothing twice (the event id is
 * unique per app). {@link WebhookDispatcher} sends them.
 */
@ApplicationScoped
public class WebhookEventFeed {

    static final String CHANNEL = "webhook-events";
    static final String AUTH_CHANNEL = "webhook-auth-events";

    private final TopicFeeder feeder;
    private final WebhookEndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final ObjectMapper mapper;

    public WebhookEventFeed(TopicFeeder feeder, WebhookEndpointStore endpoints, DeliveryStore deliveries,
            ObjectMapper mapper) {
        this.feeder = feeder;
        this.endpoints = endpoints;
        this.deliveries = deliveries;
        this.mapper = mapper;
    }

    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(CHANNEL, poll, (c, batch) -> {
            Map<String, Optional<WebhookEndpoint>> subscribers = new HashMap<>();
            List<DeliveryStore.Queued> queued = new ArrayList<>();
            for (ConsumerRecord<String, String> record : batch) {
                // the key starts with the app: an app without a subscription costs no parse of the event
                String key = record.key();
                int colon = key == null ? -1 : key.indexOf(':');
                if (colon <= 0) {
                    continue;
                }
                if (!wants(c, subscribers, key.substring(0, colon), MessageEvent.CREATED)) {
                    continue;
                }
                Optional<MessageEvent> read = feeder.read(record, MessageEvent.class);
                if (read.isPresent() && MessageEvent.CREATED.equals(read.get().type())) {
                    messageCreated(c, key, read.get()).ifPresent(queued::add);
                }
            }
            if (!queued.isEmpty()) {
                deliveries.queue(c, queued);
            }
        });
    }

    /**
     * {@code user.registered} and {@code user.changed} of {@code auth.events} (consumer group
     * {@code message-service.webhooks-auth}), as they are; the record's place in the topic is the event's id, so a
     * replayed poll queues nothing twice.
     */
    @Incoming(AUTH_CHANNEL)
    @Blocking
    public void consumeAuth(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(AUTH_CHANNEL, poll, (c, batch) -> {
            Map<String, Optional<WebhookEndpoint>> subscribers = new HashMap<>();
            List<DeliveryStore.Queued> queued = new ArrayList<>();
            for (ConsumerRecord<String, String> record : batch) {
                Optional<AuthEvent> read = feeder.read(record, AuthEvent.class);
                if (read.isEmpty() || !(AuthEvent.USER_REGISTERED.equals(read.get().type())
                        || AuthEvent.USER_CHANGED.equals(read.get().type()))) {
                    continue;
                }
                AuthEvent event = read.get();
                if (wants(c, subscribers, event.appId(), event.type())) {
                    ObjectNode data = mapper.createObjectNode();
                    data.put("user_id", event.userId());
                    data.put("disabled", event.disabled());
                    queued.add(new DeliveryStore.Queued(event.appId(), "evt_auth_" + record.partition() + "_"
                            + record.offset(), event.type(), record.key(), WebhookEvents.body(mapper, event.type(),
                            Instant.ofEpochMilli(event.at()), data)));
                }
            }
            if (!queued.isEmpty()) {
                deliveries.queue(c, queued);
            }
        });
    }

    /** Whether the app's endpoint takes events of this type; each app's endpoint is read once per poll. */
    private boolean wants(Connection c, Map<String, Optional<WebhookEndpoint>> subscribers, String appId, String type)
            throws SQLException {
        Optional<WebhookEndpoint> endpoint = subscribers.get(appId);
        if (endpoint == null) {
            endpoint = endpoints.find(c, appId);
            subscribers.put(appId, endpoint);
        }
        return endpoint.isPresent() && endpoint.get().wants(type);
    }

    /**
     * The message in full (the topic carries a preview only), read by the key's conversation; empty when it is gone
     * (the conversation was deleted meanwhile).
     */
    private Optional<DeliveryStore.Queued> messageCreated(Connection c, String key, MessageEvent event)
            throws SQLException {
        long conversation = Long.parseLong(key.substring(key.lastIndexOf(':') + 1));
        try (PreparedStatement s = c.prepareStatement("""
                select target_id, content, attachment, config, ext from messages
                where conversation_id = ? and msg_id = ?
                """)) {
            s.setLong(1, conversation);
            s.setLong(2, event.msgId());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                ObjectNode data = mapper.createObjectNode();
                data.put("msg_id", event.msgId());
                data.put("kind", event.kind());
                data.put("from_user_id", event.senderId());
                data.put("to_id", rs.getLong(1));
                data.put("content_type", event.contentType());
                data.put("content", rs.getString(2));
                data.put("attachment", rs.getString(3));
                data.put("config", rs.getString(4));
                data.put("ext", rs.getString(5));
                data.put("created_ms", event.createdMs());
                String body = WebhookEvents.body(mapper, MessageEvent.CREATED, Instant.ofEpochMilli(event.createdMs()),
                        data);
                return Optional.of(new DeliveryStore.Queued(event.appId(), "evt_msg_created_" + event.msgId(),
                        MessageEvent.CREATED, key, body));
            }
        }
    }
}
