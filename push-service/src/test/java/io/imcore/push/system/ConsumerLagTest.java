package io.imcore.push.system;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.kafka.KafkaClients;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TopicReader;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
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
        try (Admin admin = SharedInfrastructure.get().kafkaClients().admin(Map.of())) {
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            TopicReader.endOffsets(admin, "push.vendor_d").forEach((tp, end) -> commit.put(tp, new OffsetAndMetadata(end)));
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
        try (Admin admin = SharedInfrastructure.get().kafkaClients().admin(Map.of())) {
            // as push-worker commits: the offset after each partition's last record (others: all read already)
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            TopicReader.endOffsets(admin, topic).forEach((tp, end) -> {
                long offset = next.getOrDefault(tp, end);
                assertTrue(offset < end || !next.containsKey(tp), "a marker after the records of " + tp);
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
    private static void writeInTransaction(String topic, int count, Map<TopicPartition, Long> next) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(new ProducerRecord<>(topic, "tx-lag-test:" + i, "{}"));
        }
        for (RecordMetadata written : TopicWriter.sendTogether(records)) {
            next.merge(new TopicPartition(topic, written.partition()), written.offset() + 1, Math::max);
        }
    }

    @Test
    void onlyTheOperatorMayReadIt() {
        given().get("/push/system/lag").then().statusCode(200).body("code", equalTo(10010));
        given().header("platform-key", "wrong").get("/push/system/lag").then().body("code", equalTo(10010));
    }

    @Test
    void kafkaOutOfReachIs50003WithinTheTimeout() {
        ConsumerLag unreachable = new ConsumerLag(KafkaClients.at("127.0.0.1:1"), Duration.ofSeconds(2));
        long started = System.nanoTime();
        ApiException refused = assertThrows(ApiException.class, unreachable::read);
        assertEquals(ErrorCode.UNAVAILABLE, refused.errorCode());
        assertTrue(System.nanoTime() - started < 8_000_000_000L, "bounded, not a hang");
        unreachable.close(null);
    }
}
