package io.imcore.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a real topic of the shared broker from the beginning, for tests that assert what a service emitted. */
public final class TopicReader {

    /** Longer than the services' Kafka transaction timeouts (push-service's expansion: 15 s). */
    private static final Duration OPEN_TRANSACTIONS_WAIT = Duration.ofSeconds(25);

    private TopicReader() {}

    /**
     * Every committed record of the topic as it stands now (from the beginning up to the end offsets). A transaction
     * still open on a partition hides the records committed after it from a read_committed reader: a writer killed
     * mid-transaction leaves one open until the broker aborts it (the writer's transaction timeout). So this first
     * waits, up to {@link #OPEN_TRANSACTIONS_WAIT}, until no transaction is open on the topic, then reads to its end.
     */
    public static List<ConsumerRecord<String, String>> readAll(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.get().kafkaBootstrapServers());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, String>> all = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = stableEnds(consumer, props, partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cannot read " + topic + " to its end");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(all::add);
            }
        }
        return all;
    }

    /**
     * The read_committed end offsets (the last stable offsets) once they reach the partitions' ends, or as they are
     * after {@link #OPEN_TRANSACTIONS_WAIT} (a writer still running its transactions).
     */
    private static Map<TopicPartition, Long> stableEnds(KafkaConsumer<String, String> committed, Properties props,
            List<TopicPartition> partitions) {
        Properties uncommittedProps = new Properties();
        uncommittedProps.putAll(props);
        uncommittedProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<String, String> uncommitted =
                new KafkaConsumer<>(uncommittedProps, new StringDeserializer(), new StringDeserializer())) {
            Map<TopicPartition, Long> written = uncommitted.endOffsets(partitions);
            long deadline = System.nanoTime() + OPEN_TRANSACTIONS_WAIT.toNanos();
            Map<TopicPartition, Long> stable = new HashMap<>(committed.endOffsets(partitions));
            while (partitions.stream().anyMatch(p -> stable.get(p) < written.get(p)) && System.nanoTime() < deadline) {
                sleep(Duration.ofMillis(200));
                stable.putAll(committed.endOffsets(partitions));
            }
            return stable;
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for open transactions", e);
        }
    }

    /** Waits until records matching the filter appear (or the timeout passes) and returns those seen. */
    public static List<ConsumerRecord<String, String>> await(String topic, Predicate<ConsumerRecord<String, String>> filter,
            int expected, Duration timeout) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.get().kafkaBootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // what a transactional writer aborted is not there (no difference for other topics)
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, String>> matched = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (matched.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (filter.test(record)) {
                        matched.add(record);
                    }
                }
            }
        }
        return matched;
    }
}
