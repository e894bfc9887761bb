package io.imcore.push.device;

import io.imcore.common.events.PresenceEvent;
import io.imcore.common.events.TopicFeeder;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps {@code push_presence} from message-service's {@value PresenceEvent#TOPIC} (consumer group {@value #GROUP}):
 * which devices have a live connection, for the svcpush routing. Redeliveries and late records of an older
 * connection are harmless (the highest seq wins, {@link DevicePresenceStore.Change#STANDING}). On with
 * {@code im.push.presence-feed.enabled}.
 */
@ApplicationScoped
public class PresenceFeed {

    static final String CHANNEL = "push-presence";
    static final String GROUP = "push-service.presence";
    private static final Logger LOG = Logger.getLogger(PresenceFeed.class);

    private final TopicFeeder feeder;
    private final DevicePresenceStore presence;

    public PresenceFeed(TopicFeeder feeder, DevicePresenceStore presence) {
        this.feeder = feeder;
        this.presence = presence;
    }

    /**
     * One poll, applied in one transaction and one statement (every WebSocket connect and close is an event here: a
     * statement each cost push-service ~130 µs per event, docs/benchmarks.md, issue 34); the connector commits its
     * offsets only after this returns.
     */
    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(CHANNEL, poll, (c, records) -> {
            List<DevicePresenceStore.Change> changes = new ArrayList<>();
            for (ConsumerRecord<String, String> record : records) {
                change(record).ifPresent(changes::add);
            }
            presence.apply(c, changes);
        });
    }

    private Optional<DevicePresenceStore.Change> change(ConsumerRecord<String, String> record) {
        PresenceEvent event = feeder.read(record, PresenceEvent.class).orElse(null);
        if (event == null) {
            return Optional.empty();
        }
        boolean online = PresenceEvent.DEVICE_ONLINE.equals(event.type());
        if (!online && !PresenceEvent.DEVICE_OFFLINE.equals(event.type())) {
            return Optional.empty(); // a future type
        }
        if (event.appId() == null || event.deviceSn() < 1) {
            LOG.errorf("skipping incomplete presence event at %s-%d@%d", record.topic(), record.partition(), record.offset());
            return Optional.empty();
        }
        return Optional.of(new DevicePresenceStore.Change(event.appId(), event.userId(), event.deviceSn(), event.seq(),
                online));
    }
}
