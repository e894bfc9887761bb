package io.imcore.push.system;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.kafka.KafkaClients;
import io.imcore.pushcontract.Channel;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * push-worker's consumer lag per channel topic (docs/push-worker.md: group {@code push-worker.<channel>}), read with
 * Kafka's Admin client: per partition, the end offset a read_committed consumer can reach minus the group's committed
 * offset. A partition the group never committed counts from the log's start (push-worker's consumers start at
 * {@code earliest}). The channel topics are written in transactions, so the offsets past a partition's last record
 * hold commit markers, which a consumer never receives and so never commits past: where that gap is not empty, a
 * read_committed consumer reads it from the committed offset, and the lag counts from the first data record it finds
 * (0 when there is none, only markers). Every Kafka call shares one deadline: an unreachable Kafka is a 50003 within
 * it, never a hang.
 */
@ApplicationScoped
public class ConsumerLag {

    /** One channel's row of {@code GET /push/system/lag}. */
    public record ChannelLag(String channel, String topic, String group, int partitions, long lag) {}

    private final KafkaClients kafka;
    private final Duration timeout;
    private Admin admin;

    public ConsumerLag(KafkaClients kafka, @ConfigProperty(name = "im.push.system.lag-timeout") Duration timeout) {
        this.kafka = kafka;
        this.timeout = timeout;
    }

    public List<ChannelLag> read() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            Admin kafka = admin();
            List<String> topics = new ArrayList<>();
            for (Channel channel : Channel.values()) {
                topics.add(channel.topic());
            }
            Map<String, Integer> partitionCounts = new HashMap<>();
            for (var entry : kafka.describeTopics(topics).topicNameValues().entrySet()) {
                partitionCounts.put(entry.getKey(), partitions(entry.getValue(), deadline));
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            partitionCounts.forEach((topic, count) -> {
                for (int p = 0; p < count; p++) {
                    latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
                    earliest.put(new TopicPartition(topic, p), OffsetSpec.earliest());
                }
            });
            ListOffsetsOptions committedOnly = new ListOffsetsOptions(IsolationLevel.READ_COMMITTED);
            Map<TopicPartition, ListOffsetsResultInfo> ends =
                    await(kafka.listOffsets(latest, committedOnly).all(), deadline);
            Map<TopicPartition, ListOffsetsResultInfo> starts =
                    await(kafka.listOffsets(earliest, committedOnly).all(), deadline);
            Map<String, ListConsumerGroupOffsetsSpec> groups = new LinkedHashMap<>();
            for (Channel channel : Channel.values()) {
                groups.put(channel.workerGroup(), new ListConsumerGroupOffsetsSpec());
            }
            Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
                    await(kafka.listConsumerGroupOffsets(groups).all(), deadline);
            Map<TopicPartition, Long> froms = new HashMap<>();
            Map<TopicPartition, Long> unread = new HashMap<>();
            for (Channel channel : Channel.values()) {
                int count = partitionCounts.getOrDefault(channel.topic(), 0);
                Map<TopicPartition, OffsetAndMetadata> offsets = committed.getOrDefault(channel.workerGroup(), Map.of());
                for (int p = 0; p < count; p++) {
                    TopicPartition partition = new TopicPartition(channel.topic(), p);
                    OffsetAndMetadata at = offsets.get(partition);
                    long from = at != null ? at.offset() : starts.get(partition).offset();
                    froms.put(partition, from);
                    if (ends.get(partition).offset() > from) {
                        unread.put(partition, from);
                    }
                }
            }
            Map<TopicPartition, Long> firstRecords = firstDataRecords(unread, ends, deadline);
            List<ChannelLag> rows = new ArrayList<>();
            for (Channel channel : Channel.values()) {
                int count = partitionCounts.getOrDefault(channel.topic(), 0);
                long lag = 0;
                for (int p = 0; p < count; p++) {
                    TopicPartition partition = new TopicPartition(channel.topic(), p);
                    long from = firstRecords.getOrDefault(partition, froms.get(partition));
                    lag += Math.max(0, ends.get(partition).offset() - from);
                }
                rows.add(new ChannelLag(channel.wireName(), channel.topic(), channel.workerGroup(), count, lag));
            }
            return rows;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted");
        } catch (TimeoutException e) {
            throw unavailable("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw unavailable(cause.toString());
        }
    }

    /**
     * Per partition with offsets between {@code froms} and its end, the offset of the first data record a
     * read_committed consumer reads there, or the end offset when it reads none (only transaction markers, or aborted
     * records). A partition not settled by the deadline keeps its committed offset (lag counted as before).
     */
    private Map<TopicPartition, Long> firstDataRecords(Map<TopicPartition, Long> froms,
            Map<TopicPartition, ListOffsetsResultInfo> ends, long deadline) {
        Map<TopicPartition, Long> found = new HashMap<>();
        if (froms.isEmpty()) {
            return found;
        }
        int millis = clientTimeoutMillis();
        try (KafkaConsumer<byte[], byte[]> reader = kafka.consumer(Map.of(
                ConsumerConfig.CLIENT_ID_CONFIG, "push-service-lag-reader",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, millis,
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            reader.assign(froms.keySet());
            froms.forEach(reader::seek);
            Map<TopicPartition, Long> open = new HashMap<>(froms);
            while (!open.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofNanos(Math.min(left, 200_000_000L)))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (open.remove(partition) != null) {
                        found.put(partition, record.offset());
                        reader.pause(List.of(partition));
                    }
                }
                for (TopicPartition partition : List.copyOf(open.keySet())) {
                    long end = ends.get(partition).offset();
                    if (reader.position(partition, Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))) >= end) {
                        open.remove(partition);
                        found.put(partition, end);
                        reader.pause(List.of(partition));
                    }
                }
            }
        }
        return found;
    }

    /** The topic's partition count; 0 while it does not exist (nothing was ever pushed on the channel). */
    private static int partitions(KafkaFuture<TopicDescription> topic, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return await(topic, deadline).partitions().size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw e;
        }
    }

    private static <T> T await(KafkaFuture<T> future, long deadline)
            throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private static ApiException unavailable(String why) {
        return new ApiException(ErrorCode.UNAVAILABLE, "Kafka did not answer the lag query: " + why);
    }

    private synchronized Admin admin() {
        if (admin == null) {
            int millis = clientTimeoutMillis();
            admin = kafka.admin(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis,
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis,
                    AdminClientConfig.CLIENT_ID_CONFIG, "push-service-lag"));
        }
        return admin;
    }

    /** The clients' own request timeouts: the query's, at least a second. */
    private int clientTimeoutMillis() {
        return (int) Math.max(1000, timeout.toMillis());
    }

    synchronized void close(@Observes ShutdownEvent event) {
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
