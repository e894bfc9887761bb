package io.imcore.push.offline;

import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.TopicFeeder;
import io.imcore.push.FanoutConfig;
import io.imcore.push.fanout.ChannelRecords;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes message-service's {@value MessageEvent#TOPIC} (consumer group {@value #GROUP}): one poll's decisions in
 * one transaction ({@link OfflinePushPlanner}), then their channel records on the {@code push.<channel>} topics, then
 * the poll is acknowledged. A crash between the two replays the poll: the trace rows are there, the records of the
 * devices still queued are written again, and push-worker's claim on each row sends a device once
 * (docs/offline-push.md "Exactly one per message and device"). On with {@code im.push.offline.enabled}.
 */
@ApplicationScoped
public class OfflinePushFeed {

    static final String CHANNEL = "offline-push";
    static final String GROUP = "push-service.offline-push";
    private static final Logger LOG = Logger.getLogger(OfflinePushFeed.class);

    private final TopicFeeder feeder;
    private final OfflinePushPlanner planner;
    private final KafkaProducer<String, byte[]> producer;
    private final Counter records;
    private volatile boolean stopping;

    public OfflinePushFeed(TopicFeeder feeder, OfflinePushPlanner planner, FanoutConfig fanout,
            MeterRegistry registry,
            @ConfigProperty(name = "kafka.bootstrap.servers", defaultValue = "localhost:9092") String bootstrapServers) {
        this.feeder = feeder;
        this.planner = planner;
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, fanout.compression());
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "offline-push-records");
        this.producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        new KafkaClientMetrics(producer).bindTo(registry);
        this.records = registry.counter("imcore.offline_push.records");
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
        producer.close(Duration.ofSeconds(5));
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
                List<Future<?>> sends = new ArrayList<>();
                for (ChannelRecords.Encoded record : planned) {
                    sends.add(producer.send(new ProducerRecord<>(record.topic(), record.batch().key(), record.json())));
                }
                producer.flush();
                for (Future<?> send : sends) {
                    send.get(30, TimeUnit.SECONDS);
                }
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
