package io.imcore.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes records to a real topic of the shared broker, as another service would. */
public final class TopicWriter {

    private TopicWriter() {}

    public static void send(String topic, String key, String value) {
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the broker refused a test record", e);
        }
    }

    /**
     * Writes the records in one committed transaction, as push-service writes the channel topics: a read_committed
     * reader sees them all at once, followed by the transaction's marker. Returns where each was written.
     */
    public static List<RecordMetadata> sendTogether(List<ProducerRecord<String, String>> records) {
        try (KafkaProducer<String, String> producer =
                producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-writer-" + UUID.randomUUID()))) {
            producer.initTransactions();
            producer.beginTransaction();
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<String, String> record : records) {
                sent.add(producer.send(record));
            }
            producer.commitTransaction();
            List<RecordMetadata> written = new ArrayList<>();
            for (Future<RecordMetadata> future : sent) {
                written.add(future.get());
            }
            return written;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the broker refused a test record", e);
        }
    }

    private static KafkaProducer<String, String> producer(Map<String, Object> settings) {
        return SharedInfrastructure.get().kafkaClients().producer(settings, new StringSerializer(),
                new StringSerializer());
    }
}
