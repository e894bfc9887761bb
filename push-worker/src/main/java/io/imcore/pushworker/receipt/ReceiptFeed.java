package io.imcore.pushworker.receipt;

import io.imcore.common.events.TopicFeeder;
import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * svcpush delivery confirmations: message-service publishes a device's {@code notification_ack} on
 * {@value #TOPIC}; each counts once into svcpush_received (common {@link Receipts}). One consumer group for all
 * replicas: the counting is idempotent, so a replayed poll changes nothing.
 */
@ApplicationScoped
public class ReceiptFeed {

    /** message-service's device acks for svcpush notifications (docs/events.md). */
    public static final String TOPIC = "push.receipts";

    /** The record value, format version 1. */
    public record ReceiptEvent(int v, long taskId, String appId, String channel, long userId, int deviceSn) {}

    private final TopicFeeder feeder;
    private final boolean enabled;

    public ReceiptFeed(TopicFeeder feeder,
            @ConfigProperty(name = "im.push.worker.enabled", defaultValue = "true") boolean enabled) {
        this.feeder = feeder;
        this.enabled = enabled;
    }

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        feeder.feed(TOPIC, "push-worker.receipts", "push-receipts", (c, record) -> {
            Optional<ReceiptEvent> receipt = feeder.read(record, ReceiptEvent.class);
            Optional<Channel> channel = receipt.flatMap(r -> Channel.fromWireName(r.channel()));
            if (receipt.isPresent() && receipt.get().v() == 1 && channel.isPresent()) {
                ReceiptEvent r = receipt.get();
                Receipts.byDevice(c, r.taskId(), channel.get(), r.appId(), r.userId(), r.deviceSn());
            }
        });
    }
}
