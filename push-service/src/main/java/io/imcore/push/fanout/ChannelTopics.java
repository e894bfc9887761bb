package io.imcore.push.fanout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.kafka.EndOffsets;
import io.imcore.push.task.ExpansionCheckpoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One expander thread's way onto the channel topics: a transactional producer ({@link ChannelRecordWriter}'s) that
 * commits a step's channel records together with its {@link ExpansionCheckpoint}, and the read-back of the last
 * committed checkpoint on resume.
 * After any producer error the producer is dropped; the next use creates it again, and its initTransactions aborts
 * whatever the failed one left open.
 */
final class ChannelTopics implements AutoCloseable {

    /** A committed checkpoint and its offset on {@value ExpansionCheckpoint#TOPIC}. */
    record Committed(ExpansionCheckpoint checkpoint, long offset) {}

    private final ChannelRecordWriter writer;
    private final String transactionalId;
    private final Duration transactionTimeout;
    private final ObjectMapper mapper;
    private final Admin admin;
    private KafkaProducer<String, byte[]> producer;

    ChannelTopics(ChannelRecordWriter writer, String transactionalId, Duration transactionTimeout,
            ObjectMapper mapper) {
        this.writer = writer;
        this.transactionalId = transactionalId;
        this.transactionTimeout = transactionTimeout;
        this.mapper = mapper;
        this.admin = writer.kafka().admin(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
    }

    /**
     * Writes the step's records and its checkpoint in one transaction; returns the checkpoint's offset. Throws
     * {@link KafkaException} when the transaction did not commit (then none of it is visible to read_committed).
     */
    long commitStep(List<ChannelRecords.Encoded> records, ExpansionCheckpoint checkpoint) {
        KafkaProducer<String, byte[]> p = producer();
        try {
            p.beginTransaction();
            for (ChannelRecords.Encoded record : records) {
                p.send(ChannelRecordWriter.record(record));
            }
            Future<RecordMetadata> sent = p.send(new ProducerRecord<>(ExpansionCheckpoint.TOPIC,
                    checkpointPartition(checkpoint.taskId()), Long.toString(checkpoint.taskId()), json(checkpoint)));
            p.commitTransaction();
            return sent.get().offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drop();
            throw new KafkaException("interrupted while committing a fan-out step", e);
        } catch (ExecutionException | RuntimeException e) {
            drop();
            throw e instanceof KafkaException k ? k : new KafkaException("fan-out step not committed", e);
        }
    }

    /** Every checkpoint written from now on for this task lies after the returned offset. */
    long checkpointFloor(long taskId) {
        TopicPartition partition = new TopicPartition(ExpansionCheckpoint.TOPIC, checkpointPartition(taskId));
        return EndOffsets.of(admin, List.of(partition), IsolationLevel.READ_UNCOMMITTED).get(partition) - 1;
    }

    /**
     * The last committed checkpoint of the task after {@code afterOffset}. First waits until every transaction open
     * on the partition is decided (a crashed writer's is aborted by the broker within the transaction timeout), so
     * a step committed just before a crash is never missed.
     */
    Optional<Committed> lastCheckpoint(long taskId, long afterOffset) {
        TopicPartition partition = new TopicPartition(ExpansionCheckpoint.TOPIC, checkpointPartition(taskId));
        Duration settleWithin = transactionTimeout.plusSeconds(10);
        long deadline = System.nanoTime() + settleWithin.toNanos();
        long stable = EndOffsets.afterOpenTransactions(admin, List.of(partition), settleWithin)
                .orElseThrow(ChannelTopics::notSettled).get(partition);
        String key = Long.toString(taskId);
        Committed last = null;
        try (KafkaConsumer<String, byte[]> consumer =
                writer.kafka().consumer(Map.of(), new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, afterOffset + 1);
            while (consumer.position(partition) < stable) {
                pauseIfLate(deadline);
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() < stable && key.equals(record.key())) {
                        last = new Committed(read(record.value()), record.offset());
                    }
                }
            }
        }
        return Optional.ofNullable(last);
    }

    private int checkpointPartition(long taskId) {
        return (int) (taskId % producer().partitionsFor(ExpansionCheckpoint.TOPIC).size());
    }

    private static void pauseIfLate(long deadline) {
        if (System.nanoTime() > deadline) {
            throw notSettled();
        }
    }

    private static KafkaException notSettled() {
        return new KafkaException("the checkpoint partition did not settle in time");
    }

    private KafkaProducer<String, byte[]> producer() {
        if (producer == null) {
            KafkaProducer<String, byte[]> created = writer.transactional(transactionalId, transactionTimeout);
            try {
                created.initTransactions();
            } catch (RuntimeException e) {
                created.close(Duration.ZERO);
                throw e;
            }
            producer = created;
        }
        return producer;
    }

    private void drop() {
        if (producer != null) {
            producer.close(Duration.ZERO);
            producer = null;
        }
    }

    private byte[] json(Object value) {
        try {
            return mapper.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a fan-out record must serialize", e);
        }
    }

    private ExpansionCheckpoint read(byte[] value) {
        try {
            return mapper.readValue(value, ExpansionCheckpoint.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable checkpoint on " + ExpansionCheckpoint.TOPIC, e);
        }
    }

    @Override
    public void close() {
        drop();
        admin.close(Duration.ofSeconds(5));
    }
}
