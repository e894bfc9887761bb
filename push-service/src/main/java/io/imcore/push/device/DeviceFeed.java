package io.imcore.push.device;

import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.TopicFeeder;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps the device registry from auth-service's {@code device.registered} and {@code device.removed} events
 * ({@value AuthEvent#TOPIC}, consumer group {@value #GROUP}); other event types are the auth view's. On with
 * {@code im.push.devices-feed.enabled}.
 */
@ApplicationScoped
public class DeviceFeed {

    static final String CHANNEL = "push-devices";
    static final String GROUP = "push-service.devices";
    private static final Logger LOG = Logger.getLogger(DeviceFeed.class);

    private final TopicFeeder feeder;
    private final DeviceStore devices;

    public DeviceFeed(TopicFeeder feeder, DeviceStore devices) {
        this.feeder = feeder;
        this.devices = devices;
    }

    /** One poll, applied in one transaction; the connector commits its offsets only after this returns. */
    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(CHANNEL, poll, feeder.events(AuthEvent.class, this::apply));
    }

    private void apply(Connection c, ConsumerRecord<String, String> record, AuthEvent event) throws SQLException {
        boolean registered = AuthEvent.DEVICE_REGISTERED.equals(event.type());
        if (!registered && !AuthEvent.DEVICE_REMOVED.equals(event.type())) {
            return;
        }
        if (event.appId() == null || event.userId() == null || event.deviceSn() == null
                || registered && event.pushToken() == null) {
            LOG.errorf("skipping incomplete device event at %s-%d@%d", record.topic(), record.partition(), record.offset());
            return;
        }
        if (registered) {
            devices.registered(c, event.appId(), event.userId(), event.deviceSn(), event.pushToken());
        } else {
            devices.removed(c, event.appId(), event.userId(), event.deviceSn());
        }
    }
}
