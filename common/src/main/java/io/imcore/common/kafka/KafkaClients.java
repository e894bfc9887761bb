package io.imcore.common.kafka;

import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one maker of the Kafka clients built by hand, where Reactive Messaging's connector does not fit
 * (docs/architecture.md, "Where the plain client stays, and why"). Every client reaches the brokers of
 * {@code kafka.bootstrap.servers}, the setting the connector's {@code @Incoming} feeds read too, and starts from the
 * settings every such client shares (below); a caller adds only what its own use needs, and may override a shared one.
 */
@Singleton
public class KafkaClients {

    private final String bootstrapServers;

    public KafkaClients(@ConfigProperty(name = "kafka.bootstrap.servers", defaultValue = "localhost:9092")
            String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** For code outside CDI: test-support's readers and writers, a test's unreachable broker. */
    public static KafkaClients at(String bootstrapServers) {
        return new KafkaClients(bootstrapServers);
    }

    /**
     * A producer whose writes are acknowledged by all in-sync replicas and idempotent (a retried send is not written
     * twice), and that gives up on a broker it cannot reach within 10 s rather than the client's default minute.
     */
    public <K, V> KafkaProducer<K, V> producer(Map<String, Object> settings, Serializer<K> keys, Serializer<V> values) {
        Map<String, Object> props = shared();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        props.putAll(settings);
        return new KafkaProducer<>(props, keys, values);
    }

    /**
     * A consumer that reads only committed transactions (the channel topics and the expansion checkpoints are
     * written in transactions) and commits no offset by itself: its owner commits, or reads without a group.
     */
    public <K, V> KafkaConsumer<K, V> consumer(Map<String, Object> settings, Deserializer<K> keys,
            Deserializer<V> values) {
        Map<String, Object> props = shared();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.putAll(settings);
        return new KafkaConsumer<>(props, keys, values);
    }

    public Admin admin(Map<String, Object> settings) {
        Map<String, Object> props = shared();
        props.putAll(settings);
        return Admin.create(props);
    }

    private Map<String, Object> shared() {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return props;
    }
}
