package io.imcore.push.fanout;

import io.imcore.common.kafka.KafkaClients;
import io.imcore.push.FanoutConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The one way onto the {@code push.<channel>} topics (docs/push-fanout.md): the producers of channel records, set up
 * in one place (every write acknowledged by all replicas, idempotent, the fan-out's compression), and the Kafka record
 * a channel record is written as. Two kinds of writer use it: the expansion's transactional producers
 * ({@link ChannelTopics}, a step's records with its checkpoint) and offline push's records ({@link #writeAll}), which
 * need no transaction because push-worker's claim of each trace row sends a device once (docs/offline-push.md).
 * Made at start, so that a compression Kafka does not know stops the start.
 */
@Startup
@ApplicationScoped
public class ChannelRecordWriter {

    private final KafkaClients kafka;
    private final String compression;
    private final MeterRegistry registry;
    private KafkaProducer<String, byte[]> acknowledged; // offline push's; made at its first write
    private boolean closed;

    public ChannelRecordWriter(FanoutConfig config, MeterRegistry registry, KafkaClients kafka) {
        this.kafka = kafka;
        this.compression = compressionType(config.compression()); // fails the start on an unknown name
        this.registry = registry;
    }

    /** The name as the producer's {@code compression.type}; a name Kafka does not know fails at start, not per write. */
    static String compressionType(String name) {
        try {
            return CompressionType.forName(name).name;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("im.push.fanout.compression: not one of Kafka's compression types "
                    + "(none, gzip, snappy, lz4, zstd): " + name, e);
        }
    }

    /** For {@link ChannelTopics}' admin client and checkpoint reader. */
    KafkaClients kafka() {
        return kafka;
    }

    /** The channel record as Kafka holds it: on its channel's topic, under its batch's key ({@code PushBatch.key}). */
    static ProducerRecord<String, byte[]> record(ChannelRecords.Encoded encoded) {
        return new ProducerRecord<>(encoded.topic(), encoded.batch().key(), encoded.json());
    }

    /** A new transactional producer for one expander thread (its transactions not yet initialised). */
    KafkaProducer<String, byte[]> transactional(String transactionalId, Duration transactionTimeout) {
        return producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis(),
                ProducerConfig.LINGER_MS_CONFIG, 5, // a step's records go out together at its commit
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024));
    }

    /**
     * Writes the records and returns once the brokers acknowledged every one; throws when one was not (the caller
     * writes them all again: a record written twice is harmless, push-worker's claim sends a device once).
     */
    public void writeAll(List<ChannelRecords.Encoded> records)
            throws InterruptedException, ExecutionException, TimeoutException {
        KafkaProducer<String, byte[]> producer = acknowledged();
        List<Future<?>> sends = new ArrayList<>(records.size());
        for (ChannelRecords.Encoded record : records) {
            sends.add(producer.send(record(record)));
        }
        producer.flush();
        for (Future<?> send : sends) {
            send.get(30, TimeUnit.SECONDS);
        }
    }

    private synchronized KafkaProducer<String, byte[]> acknowledged() {
        if (closed) {
            throw new IllegalStateException("stopping: channel records are no longer written");
        }
        if (acknowledged == null) {
            acknowledged = producer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 1,
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
                    ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                    ProducerConfig.CLIENT_ID_CONFIG, "offline-push-records"));
            new KafkaClientMetrics(acknowledged).bindTo(registry);
        }
        return acknowledged;
    }

    /** A producer of channel records: the kit's (acknowledged by all replicas, idempotent), with the compression. */
    private KafkaProducer<String, byte[]> producer(Map<String, Object> settings) {
        Map<String, Object> props = new HashMap<>(settings);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        return kafka.producer(props, new StringSerializer(), new ByteArraySerializer());
    }

    @PreDestroy
    synchronized void close() {
        closed = true;
        if (acknowledged != null) {
            acknowledged.close(Duration.ofSeconds(5));
            acknowledged = null;
        }
    }
}
