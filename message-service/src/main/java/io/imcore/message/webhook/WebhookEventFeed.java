package io.imcore.message.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.PushEvent;
import io.imcore.common.events.TopicFeeder;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
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
 * Turns the events of other services' topics into the deliveries of the apps that subscribed to them (the replicas
 * of each consumer group share the partitions, as push-worker's consumers do). One poll is queued in one transaction
 * (common's {@link TopicFeeder}), in the topic's order; a replayed poll queues nothing twice (the event id is unique
 * per app). message-service's own events are queued in their changes' transactions instead
 * ({@link WebhookEventQueue}). {@link WebhookDispatcher} sends them.
 */
@ApplicationScoped
public class WebhookEventFeed {

    static final String AUTH_CHANNEL = "webhook-auth-events";
    static final String PUSH_CHANNEL = "webhook-push-events";

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

    /**
     * {@code push.task.finished} and {@code offline_push.failed} of {@code push.events} (consumer group
     * {@code message-service.webhooks-push}): their data as push-service wrote it; the record's key orders them (a
     * task's, a recipient's), its place in the topic is the event's id.
     */
    @Incoming(PUSH_CHANNEL)
    @Blocking
    public void consumePush(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(PUSH_CHANNEL, poll, (c, batch) -> {
            Map<String, Optional<WebhookEndpoint>> subscribers = new HashMap<>();
            List<DeliveryStore.Queued> queued = new ArrayList<>();
            for (ConsumerRecord<String, String> record : batch) {
                Optional<PushEvent> read = feeder.read(record, PushEvent.class);
                if (read.isEmpty() || read.get().data() == null || !(PushEvent.TASK_FINISHED.equals(read.get().type())
                        || PushEvent.OFFLINE_PUSH_FAILED.equals(read.get().type()))) {
                    continue;
                }
                PushEvent event = read.get();
                if (wants(c, subscribers, event.appId(), event.type())) {
                    queued.add(new DeliveryStore.Queued(event.appId(), "evt_push_" + record.partition() + "_"
                            + record.offset(), event.type(), record.key(), WebhookEvents.body(mapper, event.type(),
                            Instant.ofEpochMilli(event.at()), event.data())));
                }
            }
            deliveries.queue(c, queued);
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
}
