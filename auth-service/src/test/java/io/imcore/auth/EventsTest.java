package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** auth-service tells the other services about apps, users and devices through the real auth.events topic. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class EventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode parse(ConsumerRecord<String, String> record) {
        try {
            return JSON.readTree(record.value());
        } catch (Exception e) {
            throw new AssertionError(record.value(), e);
        }
    }

    @Test
    void userLifecycleIsPublishedInOrderUnderTheUserKey() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String token = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD,
                "device_guid", "watch")).getString("data.token");
        String pushToken = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD,
                "device_guid", "watch")).getString("data.push_token");
        asToken(app.appId(), token).body(Map.of("old_password", PASSWORD, "new_password", "newer-pass-9"))
                .post("/user/change_password").then().statusCode(200);
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).put("/user/disable").then().statusCode(200);

        String key = app.appId() + ":" + userId;
        List<JsonNode> events = TopicReader.await("auth.events", r -> key.equals(r.key()), 4, Duration.ofSeconds(20))
                .stream().map(EventsTest::parse).toList();
        assertEquals(4, events.size(), "registered, device, password change, disable: " + events);
        assertEquals("user.registered", events.get(0).get("type").asText());
        assertEquals(1, events.get(0).get("v").asInt());
        assertEquals(userId, events.get(0).get("user_id").asLong());
        assertEquals(1, events.get(0).get("token_version").asInt());
        assertEquals("device.registered", events.get(1).get("type").asText());
        assertEquals(1, events.get(1).get("device_sn").asInt());
        assertEquals(pushToken, events.get(1).get("push_token").asText());
        assertEquals("user.changed", events.get(2).get("type").asText());
        assertEquals(2, events.get(2).get("token_version").asInt());
        assertEquals(false, events.get(2).get("disabled").asBoolean());
        assertEquals(true, events.get(3).get("disabled").asBoolean());
    }

    @Test
    void appCreationAndRotationArePublished() {
        AuthApi.App app = AuthApi.newApp();
        io.restassured.RestAssured.given().header("platform-key", AuthApi.PLATFORM_KEY).header("app_id", app.appId())
                .post("/app/admin_token").then().statusCode(200);
        List<JsonNode> events = TopicReader.await("auth.events", r -> app.appId().equals(r.key()), 2, Duration.ofSeconds(20))
                .stream().map(EventsTest::parse).toList();
        assertEquals(2, events.size());
        assertEquals("app.created", events.get(0).get("type").asText());
        assertEquals("app.admin_token_rotated", events.get(1).get("type").asText());
        assertEquals(2, events.get(1).get("admin_token_version").asInt());
    }
}
