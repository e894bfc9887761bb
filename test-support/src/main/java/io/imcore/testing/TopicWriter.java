package io.imcore.testing;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes records to a real topic of the shared broker, as another service would. */
public final class TopicWriter {

    private TopicWriter() {}

    public static void send(String topic, String key, String value) {
        try (KafkaProducer<String, String> producer = SharedInfrastructure.get().kafkaClients()
                .producer(Map.of(), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the broker refused a test record", e);
        }
    }
}
