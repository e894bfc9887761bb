package io.imcore.pushworker.receipt;

import io.imcore.common.events.PushReceipt;
import io.imcore.common.events.TopicFeeder;
import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * svcpush delivery confirmations: message-service publishes a device's {@code notification_ack} on
 * {@code push.receipts} ({@link PushReceipt}); each counts once into svcpush_received (common {@link Receipts}).
 * One consumer group for all replicas: the counting is idempotent, so a replayed poll changes nothing.
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
        feeder.feedBatches(PushReceipt.TOPIC, "push-worker.receipts", "push-receipts", (c, records) -> {
            Map<Channel, List<Receipts.DeviceAck>> byChannel = new EnumMap<>(Channel.class);
            for (var record : records) {
                Optional<PushReceipt> receipt = feeder.read(record, PushReceipt.class)
                        .filter(r -> r.v() == PushReceipt.VERSION);
                Optional<Channel> channel = receipt.flatMap(r -> Channel.fromWireName(r.channel()));
                if (channel.isPresent()) {
                    PushReceipt r = receipt.get();
                    byChannel.computeIfAbsent(channel.get(), k -> new ArrayList<>())
                            .add(new Receipts.DeviceAck(r.taskId(), r.appId(), r.userId(), r.deviceSn()));
                }
            }
            for (Map.Entry<Channel, List<Receipts.DeviceAck>> entry : byChannel.entrySet()) {
                Receipts.countAcks(c, entry.getKey(), entry.getValue());
            }
        });
    }
}
