package io.imcore.pushworker.receipt;

import io.imcore.common.events.TopicFeeder;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushReceipt;
import io.imcore.pushcontract.Receipts;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * svcpush delivery confirmations: message-service publishes a device's {@code notification_ack} on
 * {@code push.receipts} ({@link PushReceipt}); each counts once into svcpush_received (push-contract's {@link Receipts}).
 * Read through the SmallRye Kafka connector, channel {@value #CHANNEL} (group {@code push-worker.receipts}, one poll
 * per call, application.properties): one consumer group for all replicas, and the counting is idempotent, so a
 * replayed poll changes nothing. Off with {@code im.push.worker.enabled=false}.
 */
@ApplicationScoped
public class ReceiptFeed {

    static final String CHANNEL = "push-receipts";

    private final TopicFeeder feeder;

    public ReceiptFeed(TopicFeeder feeder) {
        this.feeder = feeder;
    }

    /** One poll, counted in one transaction; the connector commits its offsets only after this returns. */
    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(CHANNEL, poll, this::count);
    }

    private void count(Connection c, List<ConsumerRecord<String, String>> records) throws SQLException {
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
    }
}
