package io.imcore.auth.event;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.auth.AuthApi;
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

        String userKey = app.appId() + ":" + userId;
        List<ConsumerRecord<String, String>> records = TopicReader.await("auth.events",
                r -> userKey.equals(r.key()) || (userKey + ":1").equals(r.key()), 4, Duration.ofSeconds(20));
        assertEquals(4, records.size(), "registered, device, password change, disable: " + records);
        List<JsonNode> userEvents = records.stream().filter(r -> userKey.equals(r.key())).map(EventsTest::parse).toList();
        List<JsonNode> deviceEvents = records.stream().filter(r -> !userKey.equals(r.key())).map(EventsTest::parse).toList();

        assertEquals(3, userEvents.size(), "user events share one key, so they arrive in order");
        assertEquals("user.registered", userEvents.get(0).get("type").asText());
        assertEquals(1, userEvents.get(0).get("v").asInt());
        assertEquals(userId, userEvents.get(0).get("user_id").asLong());
        assertEquals(1, userEvents.get(0).get("token_version").asInt());
        assertEquals("user.changed", userEvents.get(1).get("type").asText());
        assertEquals(2, userEvents.get(1).get("token_version").asInt());
        assertEquals(false, userEvents.get(1).get("disabled").asBoolean());
        assertEquals(true, userEvents.get(2).get("disabled").asBoolean());

        assertEquals(1, deviceEvents.size(), "the device is keyed app:user:device_sn");
        assertEquals("device.registered", deviceEvents.get(0).get("type").asText());
        assertEquals(1, deviceEvents.get(0).get("device_sn").asInt());
        assertEquals("watch", deviceEvents.get(0).get("device_guid").asText());
        assertEquals(pushToken, deviceEvents.get(0).get("push_token").asText());
    }

    @Test
    void aDeviceRemovedPastTheLimitIsPublishedUnderItsKey() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        int limit = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("im.auth.max-devices-per-user", Integer.class);
        for (int i = 1; i <= limit + 1; i++) {
            post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD,
                    "device_guid", "device-" + i));
        }

        String firstDevice = app.appId() + ":" + userId + ":1";
        List<JsonNode> events = TopicReader.await("auth.events", r -> firstDevice.equals(r.key()), 2,
                Duration.ofSeconds(20)).stream().map(EventsTest::parse).toList();
        assertEquals(2, events.size(), "registered, then removed: " + events);
        assertEquals("device.registered", events.get(0).get("type").asText());
        assertEquals("device.removed", events.get(1).get("type").asText());
        assertEquals(1, events.get(1).get("device_sn").asInt());
        assertEquals("device-1", events.get(1).get("device_guid").asText());
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
