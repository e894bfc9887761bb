package io.imcore.common.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

/**
 * Applies the polls of the event feeds on the SmallRye Kafka connector (docs/architecture.md) to this service's
 * tables: each poll in one transaction, acknowledged (and so committed to Kafka) only once {@link #applyUntilCommitted}
 * returns. A crash replays the batch, so handlers must be idempotent.
 */
@ApplicationScoped
public class TopicFeeder {

    /** Applies one record, read as an event of its topic, inside the batch's transaction. */
    @FunctionalInterface
    public interface EventHandler<T> {
        void apply(Connection connection, ConsumerRecord<String, String> record, T event) throws SQLException;
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
    private volatile boolean stopping;

    public TopicFeeder(Database database, ObjectMapper mapper) {
        this.database = database;
        this.mapper = mapper;
    }

    /**
     * A batch handler that applies {@code handler} to each record of the batch, in order, read as {@code type}
     * ({@link #read}: a record that cannot be read is skipped).
     */
    public <T> BatchHandler events(Class<T> type, EventHandler<T> handler) {
        return (c, records) -> {
            for (ConsumerRecord<String, String> record : records) {
                T event = read(record, type).orElse(null);
                if (event != null) {
                    handler.apply(c, record, event);
                }
            }
        };
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

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }
}
