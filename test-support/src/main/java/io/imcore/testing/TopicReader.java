package io.imcore.testing;

import io.imcore.common.kafka.EndOffsets;
import io.imcore.common.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a real topic of the shared broker from the beginning, for tests that assert what a service emitted. */
public final class TopicReader {

    /** Longer than the services' Kafka transaction timeouts (push-service's expansion: 15 s). */
    private static final Duration OPEN_TRANSACTIONS_WAIT = Duration.ofSeconds(25);

    private TopicReader() {}

    /**
     * Every committed record of the topic as it stands now (from the beginning up to the end offsets), once no
     * transaction is open on it ({@link EndOffsets#afterOpenTransactions}); after {@link #OPEN_TRANSACTIONS_WAIT}, up
     * to the ends as they are (a writer still running its transactions).
     */
    public static List<ConsumerRecord<String, String>> readAll(String topic) {
        KafkaClients kafka = SharedInfrastructure.get().kafkaClients();
        List<ConsumerRecord<String, String>> all = new ArrayList<>();
        try (Admin admin = kafka.admin(Map.of());
                KafkaConsumer<String, String> consumer =
                        kafka.consumer(Map.of(), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = EndOffsets.afterOpenTransactions(admin, partitions, OPEN_TRANSACTIONS_WAIT)
                    .orElseGet(() -> EndOffsets.of(admin, partitions, IsolationLevel.READ_COMMITTED));
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

    /** Past the last record written on each partition of the topic, transaction markers included. */
    public static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) {
        try {
            List<TopicPartition> partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            return EndOffsets.of(admin, partitions, IsolationLevel.READ_UNCOMMITTED);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        }
    }

    /** Waits until records matching the filter appear (or the timeout passes) and returns those seen. */
    public static List<ConsumerRecord<String, String>> await(String topic, Predicate<ConsumerRecord<String, String>> filter,
            int expected, Duration timeout) {
        // a group of its own, from the beginning; read_committed (the kit's): what a transactional writer aborted is
        // not there
        Map<String, Object> props = Map.of(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, String>> matched = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                SharedInfrastructure.get().kafkaClients().consumer(props, new StringDeserializer(), new StringDeserializer())) {
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
