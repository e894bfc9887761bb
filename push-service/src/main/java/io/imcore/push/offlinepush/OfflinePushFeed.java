package io.imcore.push.offlinepush;

import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.TopicFeeder;
import io.imcore.push.fanout.ChannelRecordWriter;
import io.imcore.push.fanout.ChannelRecords;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes message-service's {@value MessageEvent#TOPIC} (consumer group {@value #GROUP}): one poll's decisions in
 * one transaction ({@link OfflinePushPlanner}), then their channel records on the {@code push.<channel>} topics
 * ({@link ChannelRecordWriter}), then the poll is acknowledged. A crash between the two replays the poll: the trace
 * rows are there, the records of the devices still queued are written again, and push-worker's claim on each row
 * sends a device once (docs/offline-push.md "Exactly one per message and device"). On with
 * {@code im.push.offline.enabled}.
 */
@ApplicationScoped
public class OfflinePushFeed {

    static final String CHANNEL = "offline-push";
    static final String GROUP = "push-service.offline-push";
    private static final Logger LOG = Logger.getLogger(OfflinePushFeed.class);

    private final TopicFeeder feeder;
    private final OfflinePushPlanner planner;
    private final ChannelRecordWriter writer;
    private final Counter records;
    private volatile boolean stopping;

    public OfflinePushFeed(TopicFeeder feeder, OfflinePushPlanner planner, ChannelRecordWriter writer,
            MeterRegistry registry) {
        this.feeder = feeder;
        this.planner = planner;
        this.writer = writer;
        this.records = registry.counter("imcore.offline_push.records");
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    /** One poll: decided and traced in one transaction, then sent; the connector commits its offsets after this. */
    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        List<ChannelRecords.Encoded> planned = new ArrayList<>();
        feeder.applyUntilCommitted(CHANNEL, poll, (c, batch) -> {
            planned.clear(); // a retried transaction plans again
            List<MessageEvent> events = new ArrayList<>();
            for (ConsumerRecord<String, String> record : batch) {
                feeder.read(record, MessageEvent.class).ifPresent(events::add);
            }
            planned.addAll(planner.plan(c, events, Instant.now()));
        });
        sendUntilAcknowledged(planned);
    }

    /** Writes the records and waits for the broker, again and again while it is away (never past them). */
    private void sendUntilAcknowledged(List<ChannelRecords.Encoded> planned) throws InterruptedException {
        if (planned.isEmpty()) {
            return;
        }
        long backoff = 200;
        while (true) {
            try {
                writer.writeAll(planned);
                records.increment(planned.size());
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (stopping) {
                    throw new InterruptedException("stopping: the poll is read again at the next start");
                }
                LOG.warnf("offline push: %d channel records not written, retrying in %d ms: %s", planned.size(),
                        backoff, e.toString());
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }
}
