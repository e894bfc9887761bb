package io.imcore.message.live;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.message.AppWithUsers;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** svcpush on the live connection: POST /internal/live/notify, the notification frame, notification_ack receipts. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class LivePushTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String INTERNAL_KEY = "test-internal-key";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicLong NEXT_TASK = new AtomicLong(ThreadLocalRandom.current().nextLong(1L << 40));

    private LiveClient device(long user, int deviceSn) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId, api.userToken(user, deviceSn), null);
    }

    private static Map<String, Object> target(long user, int deviceSn, Integer badge) {
        Map<String, Object> device = new LinkedHashMap<>();
        device.put("user_id", user);
        device.put("device_sn", deviceSn);
        device.put("badge", badge);
        return device;
    }

    private static Map<String, Object> notification() {
        Map<String, Object> notification = new LinkedHashMap<>();
        notification.put("type", "text");
        notification.put("title", "Sale");
        notification.put("body", "Everything half price");
        notification.put("ext", Map.of("campaign", "spring"));
        return notification;
    }

    private Map<String, Object> request(long taskId, List<Map<String, Object>> devices) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("app_id", api.appId);
        body.put("task_id", taskId);
        body.put("notification", notification());
        body.put("devices", devices);
        return body;
    }

    private static ValidatableResponse notify(Object body) {
        return given().header("internal-key", INTERNAL_KEY).contentType("application/json").body(body)
                .post("/internal/live/notify").then().statusCode(200);
    }

    private static String json(Object value) throws Exception {
        return JSON.writeValueAsString(value);
    }

    @Test
    void connectedDevicesGetTheFrameAndTheAnswerKeepsTheIndexOrder() {
        long taskId = NEXT_TASK.incrementAndGet();
        try (LiveClient alicePhone = device(alice, 1); LiveClient carolTablet = device(carol, 4)) {
            notify(request(taskId, List.of(
                    target(bob, 1, 2),        // 0: never connected
                    target(alice, 1, 3),      // 1
                    target(alice, 2, null),   // 2: alice's other device is not connected
                    target(carol, 4, null),   // 3
                    target(alice, 1, 3))))    // 4: listed twice, notified once
                    .body("code", equalTo(200)).body("message", nullValue())
                    .body("data.delivered", contains(1, 3, 4)).body("data.offline", contains(0, 2));

            JsonNode frame = alicePhone.next("notification", WAIT);
            assertNotNull(frame, "alice's connected device gets the notification");
            assertEquals(taskId, frame.path("task_id").asLong());
            JsonNode shown = frame.path("notification");
            assertEquals("text", shown.path("type").asText());
            assertEquals("Sale", shown.path("title").asText());
            assertEquals("Everything half price", shown.path("body").asText());
            assertEquals("spring", shown.path("ext").path("campaign").asText());
            assertEquals(3, shown.path("badge").asInt());
            // frames come in order: alice's next notification is a later task's
            long laterTask = NEXT_TASK.incrementAndGet();
            notify(request(laterTask, List.of(target(alice, 1, null)))).body("code", equalTo(200));
            assertEquals(laterTask, alicePhone.next("notification", WAIT).path("task_id").asLong(),
                    "one frame for a device listed twice");

            JsonNode withoutBadge = carolTablet.next("notification", WAIT);
            assertNotNull(withoutBadge);
            assertEquals(taskId, withoutBadge.path("task_id").asLong());
            assertFalse(withoutBadge.path("notification").has("badge"), "no badge when the device's badge is null");
        }
    }

    @Test
    void aDeviceWhoseConnectionClosedIsOffline() throws Exception {
        LiveClient bobPhone = device(bob, 1);
        bobPhone.close();
        long deadline = System.currentTimeMillis() + 10_000;
        List<Integer> offline = List.of();
        while (offline.isEmpty() && System.currentTimeMillis() < deadline) {
            offline = notify(request(NEXT_TASK.incrementAndGet(), List.of(target(bob, 1, null))))
                    .body("code", equalTo(200)).extract().path("data.offline");
            Thread.sleep(100);
        }
        assertEquals(List.of(0), offline);
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() throws Exception {
        long taskId = NEXT_TASK.incrementAndGet();
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 501; i++) {
            tooMany.add(target(bob, i, null));
        }
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("devices", json(request(taskId, List.of())));
        cases.put("devices ", json(request(taskId, tooMany)));
        cases.put("devices  ", json(Map.of("app_id", api.appId, "task_id", taskId, "notification", notification())));
        cases.put("devices[1].user_id", json(request(taskId, List.of(target(bob, 1, null), target(0, 1, null)))));
        cases.put("devices[0].user_id", json(request(taskId, List.of(Map.of("user_id", "10001", "device_sn", 1)))));
        cases.put("devices[0].device_sn", json(request(taskId, List.of(target(bob, -1, null)))));
        cases.put("devices[0].badge", json(request(taskId, List.of(Map.of("user_id", bob, "device_sn", 1,
                "badge", "+1")))));
        Map<String, Object> notObject = request(taskId, List.of(target(bob, 1, null)));
        notObject.put("notification", "hello");
        cases.put("notification", json(notObject));
        Map<String, Object> noTask = request(taskId, List.of(target(bob, 1, null)));
        noTask.remove("task_id");
        cases.put("task_id", json(noTask));
        Map<String, Object> noApp = request(taskId, List.of(target(bob, 1, null)));
        noApp.remove("app_id");
        cases.put("app_id", json(noApp));
        cases.put("body", "[]");
        cases.put("body ", "not json");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            notify(bad.getValue()).body("code", equalTo(10002)).body("data", nullValue())
                    .body("message", containsString(bad.getKey().trim()));
        }
    }

    @Test
    void aMissingOrWrongInternalKeyIsRefused() {
        Map<String, Object> body = request(NEXT_TASK.incrementAndGet(), List.of(target(bob, 1, null)));
        given().contentType("application/json").body(body).post("/internal/live/notify").then().statusCode(200)
                .body("code", equalTo(10010));
        given().header("internal-key", "guess").contentType("application/json").body(body)
                .post("/internal/live/notify").then().statusCode(200).body("code", equalTo(10010));
        // a user's token is no internal key
        api.as(bob).body(body).post("/internal/live/notify").then().statusCode(200).body("code", equalTo(10010));
    }

    /** The operator's key opens the operator's endpoints only: it cannot push to devices as a service. */
    @Test
    void thePlatformKeyIsRefused() {
        Map<String, Object> body = request(NEXT_TASK.incrementAndGet(), List.of(target(bob, 1, null)));
        given().header("platform-key", "test-platform-key").contentType("application/json").body(body)
                .post("/internal/live/notify").then().statusCode(200).body("code", equalTo(10010))
                .body("message", equalTo("internal-key missing or wrong"));
    }

    @Test
    void anAckPublishesOneReceiptAndOnlyForADeliveredTask() {
        long taskId = NEXT_TASK.incrementAndGet();
        long otherTask = NEXT_TASK.incrementAndGet();
        try (LiveClient bobPhone = device(bob, 2)) {
            notify(request(taskId, List.of(target(bob, 2, 1)))).body("data.delivered", contains(0));
            assertNotNull(bobPhone.next("notification", WAIT));

            bobPhone.send("{\"type\":\"notification_ack\",\"task_id\":" + otherTask + "}");
            JsonNode refused = bobPhone.next("notification_ack", WAIT);
            assertEquals(10002, refused.path("code").asInt(), refused.toString());
            assertEquals("task_id", refused.path("message").asText().split(":")[0]);

            for (int i = 0; i < 2; i++) {
                bobPhone.send("{\"type\":\"notification_ack\",\"task_id\":" + taskId + "}");
                JsonNode ack = bobPhone.next("notification_ack", WAIT);
                assertEquals(200, ack.path("code").asInt(), ack.toString());
                assertEquals(taskId, ack.path("task_id").asLong());
            }
        }
        // wait for more than one: a repeated ack, or an ack of an undelivered task, must not have published
        List<ConsumerRecord<String, String>> receipts = TopicReader.await("push.receipts",
                r -> r.value().contains("\"" + api.appId + "\""), 2, Duration.ofSeconds(6));
        assertEquals(1, receipts.size(), "one receipt: " + receipts);
        assertEquals(String.valueOf(taskId), receipts.get(0).key());
        JsonNode receipt = readTree(receipts.get(0).value());
        assertEquals(1, receipt.path("v").asInt());
        assertEquals(taskId, receipt.path("task_id").asLong());
        assertEquals(api.appId, receipt.path("app_id").asText());
        assertEquals("svcpush", receipt.path("channel").asText());
        assertEquals(bob, receipt.path("user_id").asLong());
        assertEquals(2, receipt.path("device_sn").asInt());
        assertEquals(6, receipt.size(), "exactly the documented fields: " + receipt);
    }

    @Test
    void malformedAcksAreRefusedAndAnAckBeforeAuthClosesTheConnection() throws Exception {
        try (LiveClient bobPhone = device(bob, 1)) {
            for (String frame : List.of("{\"type\":\"notification_ack\"}",
                    "{\"type\":\"notification_ack\",\"task_id\":\"42\"}",
                    "{\"type\":\"notification_ack\",\"task_id\":4.2}")) {
                bobPhone.send(frame);
                JsonNode answer = bobPhone.next("notification_ack", WAIT);
                assertEquals(10002, answer.path("code").asInt(), frame + " -> " + answer);
                assertEquals("task_id: must be a positive integer", answer.path("message").asText());
            }
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            client.send("{\"type\":\"notification_ack\",\"task_id\":1}");
            assertEquals(4401, client.closed.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void nothingOnlineStoresNothingAndAnswersAllOffline() {
        notify(request(NEXT_TASK.incrementAndGet(), List.of(target(bob, 1, null), target(carol, 0, 5))))
                .body("code", equalTo(200)).body("data.delivered", empty()).body("data.offline", contains(0, 1));
    }

    private static JsonNode readTree(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(text, e);
        }
    }
}
