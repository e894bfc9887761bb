package io.imcore.push.stats;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GET /push/task/history: the stored request as a /push/notify body, who sent it, and the deliveries over time from the
 * batches' and receipts' times; only the app's own tasks, refusals in the envelope.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskHistoryTest extends AppPerTest {

    /** A whole hour: every bucket width divides it. */
    private static final Instant T0 = Instant.parse("2026-10-01T00:00:00Z");

    private long notify(String userAgent, String body) {
        return api.asAdmin().header("User-Agent", userAgent).body(body).post("/push/notify").then()
                .body("code", equalTo(200)).extract().jsonPath().getLong("data.task_id");
    }

    private JsonPath history(PushApi app, long taskId) {
        return app.asAdmin().queryParam("task_id", taskId).get("/push/task/history").then().statusCode(200)
                .body("code", equalTo(200)).extract().jsonPath();
    }

    private void execute(String sql, Object... parameters) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    ps.setObject(i + 1, parameters[i]);
                }
                return ps.executeUpdate();
            }
        });
    }

    private void batch(long taskId, int batchNo, Instant finishedAt, String counts) {
        execute("insert into push_worker_batches (task_id, batch_no, state, finished_at, counts)"
                + " values (?, ?, 'done', ?, ?::jsonb)", taskId, batchNo,
                finishedAt == null ? null : Timestamp.from(finishedAt), counts);
    }

    private void receipt(long taskId, long deviceId, String channel, Instant receivedAt) {
        execute("insert into push_receipts (task_id, device_id, channel, received_at) values (?, ?, ?, ?)", taskId,
                deviceId, channel, receivedAt == null ? null : Timestamp.from(receivedAt));
    }

    @Test
    void theRequestIsReturnedAsANormalizedNotifyBodyWithItsOrigin() {
        long taskId = notify("imcore-console/1", "{\"audience\":{\"user_id\":[7,8,7]},\"setting\":{\"request_id\":"
                + "\"r-history\",\"distribution_strategy\":\"ospush_only\",\"ospush_sequence\":[\"vendor_c\",\"ups\"]},"
                + "\"message\":{\"title\":\"Sale\",\"body\":\"Half price\",\"show_begin_time\":253402300000}}");

        JsonPath history = history(api, taskId);
        assertEquals(taskId, history.getLong("data.task_id"));
        assertEquals("scheduled", history.getString("data.state"));
        assertEquals("console", history.getString("data.sent_via"));
        assertEquals(1, history.getInt("data.admin_token_version"));
        assertEquals(true, Math.abs(System.currentTimeMillis() - history.getLong("data.created_at")) < 60_000);
        assertEquals(List.of(7, 8), history.getList("data.request.audience.user_id"), "duplicates dropped");
        assertEquals(Map.of("request_id", "r-history", "distribution_strategy", "ospush_only", "ospush_sequence",
                List.of("vendor_c", "vendor_a", "vendor_b", "vendor_d", "vendor_e")),
                history.getMap("data.request.setting"));
        assertEquals("Sale", history.getString("data.request.message.title"));
        assertEquals("Half price", history.getString("data.request.message.body"));
        assertEquals("+1", history.getString("data.request.message.badge"), "the defaults it was given");
        assertEquals(253402300000L, history.getLong("data.request.message.show_begin_time"));
        assertEquals(List.of(), history.getList("data.timeline.points"), "nothing sent yet");
        assertNull(history.get("data.timeline.bucket_seconds"));
    }

    @Test
    void aCallerThatIsNotTheConsoleIsTheApiAndAllIsAString() {
        long taskId = notify("curl/8.5.0", "{\"audience\":\"all\",\"message\":{\"title\":\"t\"}}");

        JsonPath history = history(api, taskId);
        assertEquals("api", history.getString("data.sent_via"));
        assertEquals("all", history.getString("data.request.audience"));
        assertEquals("combined", history.getString("data.request.setting.distribution_strategy"));
        assertNull(history.get("data.request.setting.request_id"));
    }

    @Test
    void deliveriesAreBucketedByTheBatchesAndReceiptsTimes() {
        long taskId = notify("curl/8.5.0", "{\"audience\":\"all\",\"message\":{\"title\":\"t\"}}");
        batch(taskId, 0, T0.plusMillis(200), "{\"vendor_b\": {\"sent\": 2, \"failed\": 1, \"rejected\": 0}}");
        // a svcpush batch whose offline device fell back to Xiaomi counts on both
        batch(taskId, 1, T0.plusMillis(1500), "{\"svcpush\": {\"sent\": 1, \"failed\": 0, \"rejected\": 0},"
                + " \"vendor_b\": {\"sent\": 1, \"failed\": 0, \"rejected\": 1}}");
        batch(taskId, 2, null, null); // counted before times were kept: left out
        receipt(taskId, 1, "vendor_b", T0.plusMillis(500));
        receipt(taskId, 2, "vendor_b", T0.plusMillis(3100));
        receipt(taskId, 3, "svcpush", T0.plusMillis(3900));
        receipt(taskId, 4, "vendor_b", null); // likewise

        JsonPath history = history(api, taskId);
        assertEquals(1, history.getInt("data.timeline.bucket_seconds"), "a span under 2 minutes: 1 s");
        long t0 = T0.toEpochMilli();
        assertEquals(List.of(
                point(t0, "vendor_b", 2, 1, 0, 1),
                point(t0 + 1000, "svcpush", 1, 0, 0, 0),
                point(t0 + 1000, "vendor_b", 1, 0, 1, 0),
                point(t0 + 3000, "svcpush", 0, 0, 0, 1),
                point(t0 + 3000, "vendor_b", 0, 0, 0, 1)), history.getList("data.timeline.points"));
    }

    @Test
    void aLongerSpanHasWiderBuckets() {
        long taskId = notify("curl/8.5.0", "{\"audience\":\"all\",\"message\":{\"title\":\"t\"}}");
        batch(taskId, 0, T0.plusSeconds(10), "{\"vendor_a\": {\"sent\": 1, \"failed\": 0, \"rejected\": 0}}");
        batch(taskId, 1, T0.plusSeconds(50), "{\"vendor_a\": {\"sent\": 1, \"failed\": 0, \"rejected\": 0}}");
        receipt(taskId, 1, "vendor_a", T0.plusSeconds(3599));

        JsonPath history = history(api, taskId);
        assertEquals(60, history.getInt("data.timeline.bucket_seconds"), "a span of an hour: 1 min");
        assertEquals(List.of(point(T0.toEpochMilli(), "vendor_a", 2, 0, 0, 0),
                point(T0.plusSeconds(3540).toEpochMilli(), "vendor_a", 0, 0, 0, 1)),
                history.getList("data.timeline.points"));
    }

    private static Map<String, Object> point(long at, String channel, int sent, int failed, int rejected,
            int received) {
        return Map.of("at", at, "channel", channel, "sent", sent, "failed", failed, "rejected", rejected,
                "received", received);
    }

    @Test
    void anotherAppsTaskAndAnUnknownIdGetTheSame10002() {
        long taskId = notify("curl/8.5.0", "{\"audience\":\"all\",\"message\":{\"title\":\"t\"}}");
        PushApi other = PushApi.newApp(database);

        for (Object id : List.of(taskId, taskId + 1_000_000)) {
            other.asAdmin().queryParam("task_id", id).get("/push/task/history").then().statusCode(200)
                    .body("code", equalTo(10002)).body("message", equalTo("task_id: no such task in this app"))
                    .body("data", equalTo(null));
        }
    }

    @Test
    void badIdsGet10002AndAUserToken10010() {
        api.asAdmin().get("/push/task/history").then().body("code", equalTo(10002))
                .body("message", equalTo("task_id: required"));
        for (String id : List.of("abc", "0", "-1", "1.5", "99999999999999999999")) {
            api.asAdmin().queryParam("task_id", id).get("/push/task/history").then().statusCode(200)
                    .body("code", equalTo(10002)).body("message", startsWith("task_id: "));
        }
        api.as(api.newUser()).queryParam("task_id", 1).get("/push/task/history").then().body("code", equalTo(10010));
    }
}
