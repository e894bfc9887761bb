package io.imcore.push.system;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** GET /push/system/lag against the real Kafka of the test JVM. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ConsumerLagTest {

    private static final String PLATFORM_KEY = "test-platform-key";

    private static JsonPath lagPage() {
        return given().header("platform-key", PLATFORM_KEY).get("/push/system/lag").then().statusCode(200)
                .body("code", equalTo(200)).extract().jsonPath();
    }

    private static long lagOf(String channel) {
        return lagPage().getLong("data.list.find { it.channel == '" + channel + "' }.lag");
    }

    @Test
    void recordsNobodyCommittedAreTheLagAndACommitClearsIt() throws Exception {
        long before = lagOf("vendor_d");
        for (int i = 0; i < 7; i++) {
            TopicWriter.send("push.vendor_d", "lag-test:" + i, "{}");
        }
        assertEquals(before + 7, lagOf("vendor_d"));
        JsonPath page = lagPage();
        assertEquals(8, page.getList("data.list").size(), "one row per channel");
        assertEquals("push.vendor_d", page.getString("data.list.find { it.channel == 'vendor_d' }.topic"));
        assertEquals("push-worker.vendor_d", page.getString("data.list.find { it.channel == 'vendor_d' }.group"));
        assertTrue(page.getInt("data.list.find { it.channel == 'vendor_d' }.partitions") >= 1);

        // push-worker's group commits everything written so far: no lag left
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.get().kafkaBootstrapServers());
        try (Admin admin = Admin.create(props)) {
            int partitions = admin.describeTopics(java.util.List.of("push.vendor_d")).allTopicNames().get()
                    .get("push.vendor_d").partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition("push.vendor_d", p), OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> commit.put(tp,
                    new OffsetAndMetadata(info.offset())));
            admin.alterConsumerGroupOffsets("push-worker.vendor_d", commit).all().get();
        }
        assertEquals(0, lagOf("vendor_d"));
    }

    /**
     * push-service writes the channel topics in transactions: each commit leaves a marker offset after the records,
     * which push-worker's consumer never receives, so its group commits the offset after the last record and never
     * past the marker. That is no lag.
     */
    @Test
    void transactionMarkersAfterTheLastProcessedRecordAreNoLag() throws Exception {
        String topic = "push.vendor_e";
        Map<TopicPartition, Long> next = new HashMap<>();
        writeInTransaction(topic, 5, next);
        writeInTransaction(topic, 3, next);
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.get().kafkaBootstrapServers());
        try (Admin admin = Admin.create(props)) {
            // as push-worker commits: the offset after each partition's last record (others: all read already)
            int partitions = admin.describeTopics(java.util.List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            admin.listOffsets(latest).all().get().forEach((tp, info) -> {
                long offset = next.getOrDefault(tp, info.offset());
                assertTrue(offset < info.offset() || !next.containsKey(tp), "a marker after the records of " + tp);
                commit.put(tp, new OffsetAndMetadata(offset));
            });
            admin.alterConsumerGroupOffsets("push-worker.vendor_e", commit).all().get();
        }
        assertEquals(0, lagOf("vendor_e"));

        // a record written after that is lag again
        writeInTransaction(topic, 1, new HashMap<>());
        assertTrue(lagOf("vendor_e") >= 1, "an unread record is lag");
    }

    /** Writes {@code count} records in one committed transaction; {@code next} gets each partition's offset after them. */
    private static void writeInTransaction(String topic, int count, Map<TopicPartition, Long> next) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedInfrastructure.get().kafkaBootstrapServers());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "lag-test-" + UUID.randomUUID());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            java.util.List<java.util.concurrent.Future<RecordMetadata>> sent = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, "tx-lag-test:" + i, "{}")));
            }
            producer.commitTransaction();
            for (var future : sent) {
                RecordMetadata written = future.get();
                next.merge(new TopicPartition(topic, written.partition()), written.offset() + 1, Math::max);
            }
        }
    }

    @Test
    void onlyTheOperatorMayReadIt() {
        given().get("/push/system/lag").then().statusCode(200).body("code", equalTo(10010));
        given().header("platform-key", "wrong").get("/push/system/lag").then().body("code", equalTo(10010));
    }

    @Test
    void kafkaOutOfReachIs50003WithinTheTimeout() {
        ConsumerLag unreachable = new ConsumerLag("127.0.0.1:1", Duration.ofSeconds(2));
        long started = System.nanoTime();
        ApiException refused = assertThrows(ApiException.class, unreachable::read);
        assertEquals(ErrorCode.UNAVAILABLE, refused.errorCode());
        assertTrue(System.nanoTime() - started < 8_000_000_000L, "bounded, not a hang");
        unreachable.close(null);
    }
}
