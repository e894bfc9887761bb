package io.imcore.common.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Feeds a Kafka topic into this service's tables. Each poll is applied in one transaction and committed to Kafka
 * after it: a crash replays the batch, so handlers must be idempotent. A failed batch is rolled back and replayed
 * after a second (the database may be briefly away). Every feed stops at shutdown.
 * <p>
 * Feeds on the SmallRye Kafka connector (docs/architecture.md) receive each poll as a batch and hand it to
 * {@link #applyUntilCommitted}: the connector acknowledges the batch, and commits its offsets, only once that returns.
 */
@ApplicationScoped
public class TopicFeeder {

    /** Applies one record inside the batch's transaction. */
    @FunctionalInterface
    public interface RecordHandler {
        void apply(Connection connection, ConsumerRecord<String, String> record) throws SQLException;
    }

    /** Applies one poll's records inside the batch's transaction (for handlers that write them in one statement). */
    @FunctionalInterface
    public interface BatchHandler {
        void apply(Connection connection, List<ConsumerRecord<String, String>> records) throws SQLException;
    }

    private static final Logger LOG = Logger.getLogger(TopicFeeder.class);
    private static final long RETRY_PAUSE_MILLIS = 1_000;

    private final Database database;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final String bootstrapServers;
    private final List<Feed> feeds = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    public TopicFeeder(Database database, ObjectMapper mapper, MeterRegistry registry,
            @ConfigProperty(name = "kafka.bootstrap.servers", defaultValue = "localhost:9092") String bootstrapServers) {
        this.database = database;
        this.mapper = mapper;
        this.registry = registry;
        this.bootstrapServers = bootstrapServers;
    }

    /** Starts a thread that feeds {@code topic} to {@code handler} as consumer group {@code groupId}. */
    public void feed(String topic, String groupId, String threadName, RecordHandler handler) {
        feedBatches(topic, groupId, threadName, each(handler));
    }

    /** A batch handler that applies {@code handler} to each record of the batch, in order. */
    public static BatchHandler each(RecordHandler handler) {
        return (c, records) -> {
            for (ConsumerRecord<String, String> record : records) {
                handler.apply(c, record);
            }
        };
    }

    /** As {@link #feed}, handing the handler each poll's records at once. */
    public void feedBatches(String topic, String groupId, String threadName, BatchHandler handler) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
        // consumer metrics (kafka_consumer_*, among them records-lag-max: how far the tables trail the topic)
        new KafkaClientMetrics(consumer).bindTo(registry);
        Feed feed = new Feed(consumer, handler, threadName);
        feeds.add(feed);
        feed.thread.start();
    }

    /**
     * The record's JSON as {@code type}, or empty when it cannot be read: a record this version does not understand
     * must not stop the feed, so it is skipped, loudly.
     */
    public <T> Optional<T> read(ConsumerRecord<String, String> record, Class<T> type) {
        try {
            return Optional.of(mapper.readValue(record.value(), type));
        } catch (Exception e) {
            LOG.errorf("skipping unreadable record at %s-%d@%d", record.topic(), record.partition(), record.offset());
            return Optional.empty();
        }
    }

    /**
     * Applies one batch in one transaction, retrying it after a pause until it commits: the connector's failure
     * strategies other than {@code fail} commit past a failed record, so a batch whose database is briefly away is
     * held here instead, in its place (the connector pauses its consumer meanwhile). Throws only at shutdown, leaving
     * the batch uncommitted for the next start.
     */
    public void applyUntilCommitted(String feedName, Iterable<ConsumerRecord<String, String>> batch,
            BatchHandler handler) throws InterruptedException {
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        batch.forEach(records::add);
        while (true) {
            try {
                database.inTransaction(c -> {
                    handler.apply(c, records);
                    return null;
                });
                return;
            } catch (RuntimeException e) {
                if (stopping) {
                    throw new IllegalStateException(feedName + ": stopped before a batch could be applied", e);
                }
                LOG.warnf("%s: applying a batch failed, retrying it: %s", feedName, e.getMessage());
                Thread.sleep(RETRY_PAUSE_MILLIS);
            }
        }
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        stopping = true;
        for (Feed feed : feeds) {
            feed.running = false;
            feed.consumer.wakeup();
        }
        for (Feed feed : feeds) {
            feed.thread.join(5_000);
        }
    }

    private final class Feed {

        private final KafkaConsumer<String, String> consumer;
        private final BatchHandler handler;
        private final Thread thread;
        private volatile boolean running = true;

        Feed(KafkaConsumer<String, String> consumer, BatchHandler handler, String threadName) {
            this.consumer = consumer;
            this.handler = handler;
            this.thread = new Thread(this::loop, threadName);
            this.thread.setDaemon(true);
        }

        private void loop() {
            try {
                while (running) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                    if (!records.isEmpty()) {
                        applyOrRewind(records);
                    }
                }
            } catch (WakeupException | InterruptedException e) {
                // shutting down
            } finally {
                consumer.close(Duration.ofSeconds(5));
            }
        }

        private void applyOrRewind(ConsumerRecords<String, String> records) throws InterruptedException {
            try {
                List<ConsumerRecord<String, String>> list = new ArrayList<>(records.count());
                records.forEach(list::add);
                database.inTransaction(c -> {
                    handler.apply(c, list);
                    return null;
                });
                consumer.commitSync();
            } catch (WakeupException e) {
                throw e;
            } catch (RuntimeException e) {
                LOG.warnf("%s: applying a batch failed, replaying it: %s", thread.getName(), e.getMessage());
                for (TopicPartition partition : records.partitions()) {
                    consumer.seek(partition, records.records(partition).get(0).offset());
                }
                Thread.sleep(RETRY_PAUSE_MILLIS);
            }
        }
    }
}
