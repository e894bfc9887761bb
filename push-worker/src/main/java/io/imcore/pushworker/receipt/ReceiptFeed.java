package io.imcore.pushworker.receipt;

import io.imcore.common.events.PushReceipt;
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
 * {@code push.receipts} ({@link PushReceipt}); each counts once into svcpush_received (common {@link Receipts}). One consumer group for all
 * replicas: the counting is idempotent, so a replayed poll changes nothing.
 */
@ApplicationScoped
public class ReceiptFeed {

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
        feeder.feed(PushReceipt.TOPIC, "push-worker.receipts", "push-receipts", (c, record) -> {
            Optional<PushReceipt> receipt = feeder.read(record, PushReceipt.class);
            Optional<Channel> channel = receipt.flatMap(r -> Channel.fromWireName(r.channel()));
            if (receipt.isPresent() && receipt.get().v() == PushReceipt.VERSION && channel.isPresent()) {
                PushReceipt r = receipt.get();
                Receipts.byDevice(c, r.taskId(), channel.get(), r.appId(), r.userId(), r.deviceSn());
            }
        });
    }
}
