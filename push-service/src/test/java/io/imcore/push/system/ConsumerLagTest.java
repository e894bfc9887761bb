package io.imcore.push.system;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
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
