package io.imcore.common.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.context.AuthViewStore;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
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
 * Keeps this service's auth view ({@code auth_view_apps}, {@code auth_view_users}) from the {@value AuthEvent#TOPIC}
 * topic. Each poll is applied in one transaction and committed to Kafka after it: a crash replays the batch, and
 * replays are harmless (upserts that never move a version backwards). Enabled with {@code im.auth-view.enabled=true}.
 */
@ApplicationScoped
public class AuthViewUpdater {

    private static final Logger LOG = Logger.getLogger(AuthViewUpdater.class);

    private final Database database;
    private final ObjectMapper mapper;
    private final MeterRegistry registry;
    private final boolean enabled;
    private final String bootstrapServers;
    private final String groupId;
    private volatile boolean running;
    private KafkaConsumer<String, String> consumer;
    private Thread worker;

    public AuthViewUpdater(Database database, ObjectMapper mapper, MeterRegistry registry,
            @ConfigProperty(name = "im.auth-view.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "kafka.bootstrap.servers", defaultValue = "localhost:9092") String bootstrapServers,
            @ConfigProperty(name = "quarkus.application.name") String applicationName) {
        this.database = database;
        this.mapper = mapper;
        this.registry = registry;
        this.enabled = enabled;
        this.bootstrapServers = bootstrapServers;
        this.groupId = applicationName + ".auth-view";
    }

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(AuthEvent.TOPIC));
        // consumer metrics (kafka_consumer_*, among them records-lag-max: how far the view trails auth-service)
        new KafkaClientMetrics(consumer).bindTo(registry);
        running = true;
        worker = new Thread(this::loop, "auth-view-updater");
        worker.setDaemon(true);
        worker.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (worker == null) {
            return;
        }
        running = false;
        consumer.wakeup();
        worker.join(5_000);
    }

    private void loop() {
        try {
            while (running) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    database.inTransaction(c -> {
                        for (ConsumerRecord<String, String> record : records) {
                            apply(c, record);
                        }
                        return null;
                    });
                    consumer.commitSync();
                } catch (RuntimeException e) {
                    LOG.warnf("auth view update failed, replaying the batch: %s", e.getMessage());
                    for (TopicPartition partition : records.partitions()) {
                        consumer.seek(partition, records.records(partition).get(0).offset());
                    }
                    Thread.sleep(1_000);
                }
            }
        } catch (WakeupException | InterruptedException e) {
            // shutting down
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private void apply(Connection c, ConsumerRecord<String, String> record) throws SQLException {
        AuthEvent event;
        try {
            event = mapper.readValue(record.value(), AuthEvent.class);
        } catch (Exception e) {
            // a record this version cannot read must not stop the view: skip it, loudly
            LOG.errorf("skipping unreadable auth event at %s-%d@%d", record.topic(), record.partition(), record.offset());
            return;
        }
        if (event.type() == null || event.appId() == null) {
            return;
        }
        switch (event.type()) {
            case AuthEvent.APP_CREATED, AuthEvent.APP_ADMIN_TOKEN_ROTATED ->
                    AuthViewStore.upsertApp(c, event.appId(), event.adminTokenVersion());
            case AuthEvent.USER_REGISTERED, AuthEvent.USER_CHANGED -> AuthViewStore.upsertUser(
                    c, event.appId(), event.userId(), event.tokenVersion(), event.disabled());
            default -> { } // device events and future types are for other views
        }
    }
}
