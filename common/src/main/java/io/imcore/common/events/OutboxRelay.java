package io.imcore.common.events;

import io.imcore.common.concurrent.PollingLoop;
import io.imcore.common.concurrent.ThrottledRead;
import io.imcore.common.kafka.KafkaClients;
import io.imcore.common.store.AdvisoryLocks;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Publishes outbox rows to Kafka in id order and deletes them once the broker has acknowledged them
 * (at-least-once: consumers are idempotent). One replica relays at a time (advisory lock), which keeps the
 * per-key order across replicas. Enabled with {@code im.outbox.enabled=true}. A plain producer, not the SmallRye
 * connector's emitter: its sink re-sends a failed record by itself, behind later records of the same key
 * (docs/architecture.md, "Where the plain client stays, and why").
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long RELAY_LOCK = 0x0b0c_7e1aL;
    private static final int BATCH = 500;

    private final Database database;
    private final MeterRegistry registry;
    private final Counter published;
    private final boolean enabled;
    private final KafkaClients kafka;
    private final long idleMillis;
    /** A field: Micrometer holds a gauge's object weakly. */
    private final ThrottledRead<Double> oldestAge =
            new ThrottledRead<>("outbox age", Duration.ofSeconds(5), this::oldestAgeSeconds);
    private PollingLoop loop;
    private KafkaProducer<String, String> producer;

    public OutboxRelay(Database database, MeterRegistry registry, KafkaClients kafka,
            @ConfigProperty(name = "im.outbox.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "im.outbox.poll-millis", defaultValue = "50") long idleMillis) {
        this.database = database;
        this.registry = registry;
        this.published = registry.counter("imcore.outbox.published");
        this.enabled = enabled;
        this.kafka = kafka;
        this.idleMillis = idleMillis;
    }

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        producer = kafka.producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000), new StringSerializer(), new StringSerializer());
        // producer metrics (kafka_producer_*) on /q/metrics: send rate, errors, latency
        new KafkaClientMetrics(producer).bindTo(registry);
        // read at each scrape: a relay that cannot publish (broker down) still shows its backlog growing older
        Gauge.builder("imcore.outbox.oldest.age", oldestAge, age -> age.get().orElse(Double.NaN)).baseUnit("seconds")
                .description("age of the oldest outbox row not yet published; 0 when the outbox is empty")
                .register(registry);
        loop = new PollingLoop("outbox-relay", idleMillis, BATCH, () -> database.inTransaction(this::publishBatch),
                LOG);
        loop.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (loop == null) {
            return;
        }
        loop.stop();
        producer.close(Duration.ofSeconds(5));
    }

    /** Fails when the database is unreachable: the gauge is NaN then, and the service's other alerts say why. */
    private double oldestAgeSeconds() {
        return database.read(c -> {
            try (PreparedStatement oldest = c.prepareStatement(
                    "select extract(epoch from now() - created_at) from outbox order by id limit 1");
                    ResultSet rs = oldest.executeQuery()) {
                return rs.next() ? Math.max(0, rs.getDouble(1)) : 0.0;
            }
        });
    }

    private int publishBatch(Connection connection) throws SQLException {
        if (!AdvisoryLocks.tryXactLock(connection, RELAY_LOCK)) {
            return 0;
        }
        List<Long> ids = new ArrayList<>();
        List<Future<?>> sends = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                "select id, topic, record_key, payload from outbox order by id limit " + BATCH)) {
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                    sends.add(producer.send(new ProducerRecord<>(rs.getString(2), rs.getString(3), rs.getString(4))));
                }
            }
        }
        if (ids.isEmpty()) {
            return 0;
        }
        producer.flush();
        for (Future<?> send : sends) {
            try {
                send.get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("broker did not acknowledge an outbox record", e);
            }
        }
        try (PreparedStatement delete = connection.prepareStatement("delete from outbox where id = any(?)")) {
            delete.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            delete.executeUpdate();
        }
        published.increment(ids.size());
        return ids.size();
    }
}
