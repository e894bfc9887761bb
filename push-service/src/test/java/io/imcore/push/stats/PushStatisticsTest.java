package io.imcore.push.stats;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /push/task/list: filters, paging, limits and refusals, over tasks of an app of its own. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskListTest {

    private static final Instant T0 = Instant.parse("2026-10-01T00:00:00Z");

    @Inject
    Database database;

    private PushApi api;

    @BeforeEach
    void newApp() {
        api = PushApi.newApp(database);
    }

    /** A task as /push/notify stores it, accepted at the given time. */
    private long task(Instant createdAt, String state, String title, String body, String requestId) {
        String request = "{\"request_id\":" + (requestId == null ? "null" : "\"" + requestId + "\"")
                + ",\"message\":{\"type\":\"text\",\"title\":\"" + title + "\",\"body\":\"" + body + "\"}}";
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request, created_at)"
                    + " values (?, ?, ?::jsonb, ?) returning task_id")) {
                ps.setString(1, api.appId);
                ps.setString(2, state);
                ps.setString(3, request);
                ps.setTimestamp(4, Timestamp.from(createdAt));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /** target, sent, received, failed, rejected, fallback_in, fallback_out of one channel. */
    private void counts(long taskId, String channel, int... values) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_counts (task_id, channel, target,"
                    + " sent, received, failed, rejected, fallback_in, fallback_out) values (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setLong(1, taskId);
                ps.setString(2, channel);
                for (int i = 0; i < values.length; i++) {
                    ps.setInt(3 + i, values[i]);
                }
                return ps.executeUpdate();
            }
        });
    }

    private JsonPath list(Map<String, ?> query) {
        return api.asAdmin().queryParams(query).get("/push/task/list").then().statusCode(200)
                .body("code", equalTo(200)).extract().jsonPath();
    }

    private List<Long> ids(JsonPath page) {
        return page.getList("data.list.task_id", Long.class);
    }

    @Test
    void aTaskStoredByNotifyIsListedWithItsTitleBodyAndRequestId() {
        String body = "b".repeat(119) + "é" + "tail";
        api.asAdmin().body("{\"audience\":{\"user_id\":[1]},\"setting\":{\"request_id\":\"req-7\"},"
                + "\"message\":{\"title\":\"Sale\",\"body\":\"" + body + "\"}}").post("/push/notify")
                .then().body("code", equalTo(200));

        JsonPath page = list(Map.of());
        assertEquals(1, page.getInt("data.total"));
        assertEquals("Sale", page.getString("data.list[0].title"));
        assertEquals("b".repeat(119) + "é", page.getString("data.list[0].body"), "cut to 120 characters");
        assertEquals("req-7", page.getString("data.list[0].request_id"));
        long createdAt = page.getLong("data.list[0].created_at");
        assertEquals(true, Math.abs(System.currentTimeMillis() - createdAt) < 60_000, "epoch ms: " + createdAt);
    }

    @Test
    void rowsAreNewestFirstWithTheCountersSummedOverChannels() {
        long old = task(T0, "done", "a", "x", null);
        long recent = task(T0.plusSeconds(60), "dispatching", "b", "y", null);
        counts(old, "ios", 3, 2, 1, 1, 0, 0, 0);
        counts(old, "vendor_a", 4, 2, 0, 0, 1, 1, 0);
        counts(old, "svcpush", 2, 1, 1, 0, 0, 0, 1);

        JsonPath page = list(Map.of());
        assertEquals(List.of(recent, old), ids(page));
        assertEquals("dispatching", page.getString("data.list[0].state"));
        assertEquals(0, page.getInt("data.list[0].target"));
        assertNull(page.get("data.list[0].request_id"));
        // target as task/detail reports it: the svcpush device that fell back to vendor_a counts once
        assertEquals(9, page.getInt("data.list[1].target"));
        assertEquals(5, page.getInt("data.list[1].sent"));
        assertEquals(2, page.getInt("data.list[1].received"));
        assertEquals(1, page.getInt("data.list[1].failed"));
        assertEquals(1, page.getInt("data.list[1].rejected"));
    }

    @Test
    void fromIsInclusiveAndToExclusiveOnTheAcceptanceTime() {
        long first = task(T0, "done", "a", "x", null);
        long second = task(T0.plusMillis(1000), "done", "a", "x", null);
        long third = task(T0.plusMillis(2000), "done", "a", "x", null);
        long from = T0.plusMillis(1000).toEpochMilli();

        assertEquals(List.of(third, second), ids(list(Map.of("from", from))));
        assertEquals(List.of(first), ids(list(Map.of("to", from))));
        assertEquals(List.of(second), ids(list(Map.of("from", from, "to", from + 1000))));
        assertEquals(0, list(Map.of("from", from, "to", from)).getInt("data.total"));
    }

    @Test
    void stateAndTextNarrowTheList() {
        long done = task(T0, "done", "Summer SALE", "x", null);
        long failed = task(T0.plusSeconds(1), "failed", "t", "flash sale today", null);
        long byRequestId = task(T0.plusSeconds(2), "done", "t", "x", "campaign-sale-3");
        long other = task(T0.plusSeconds(3), "done", "100% off", "x", null);

        assertEquals(List.of(failed), ids(list(Map.of("state", "failed"))));
        assertEquals(List.of(byRequestId, failed, done), ids(list(Map.of("q", "sAlE"))));
        assertEquals(List.of(byRequestId, done), ids(list(Map.of("q", "sale", "state", "done"))));
        // LIKE wildcards in the text are taken literally
        assertEquals(List.of(other), ids(list(Map.of("q", "0%"))));
        assertEquals(0, list(Map.of("q", "_")).getInt("data.total"));
    }

    @Test
    void offsetAndLimitPageTheListAndTotalCountsEveryMatch() {
        long[] tasks = new long[25];
        for (int i = 0; i < tasks.length; i++) {
            tasks[i] = task(T0.plusSeconds(i), "done", "t" + i, "x", null);
        }

        JsonPath first = list(Map.of());
        assertEquals(25, first.getInt("data.total"));
        assertEquals(20, ids(first).size(), "default limit");
        assertEquals(tasks[24], ids(first).get(0));

        JsonPath page = list(Map.of("offset", 5, "limit", 3));
        assertEquals(List.of(tasks[19], tasks[18], tasks[17]), ids(page));
        assertEquals(25, page.getInt("data.total"));

        JsonPath beyond = list(Map.of("offset", 30));
        assertEquals(List.of(), ids(beyond));
        assertEquals(25, beyond.getInt("data.total"));
        assertEquals(25, ids(list(Map.of("limit", 100))).size());
    }

    @Test
    void anotherAppsTasksAreNotListed() {
        task(T0, "done", "mine", "x", null);
        PushApi other = PushApi.newApp(database);

        other.asAdmin().get("/push/task/list").then().body("code", equalTo(200)).body("data.total", equalTo(0));
    }

    @Test
    void aUserTokenIsRefusedWith10010() {
        long alice = api.newUser();
        api.as(alice).get("/push/task/list").then().statusCode(200).body("code", equalTo(10010));
    }

    @Test
    void badParametersGet10002NamingTheParameter() {
        List<Map<String, String>> refused = List.of(Map.of("limit", "0"), Map.of("limit", "101"),
                Map.of("limit", "x"), Map.of("offset", "-1"), Map.of("state", "sent"), Map.of("from", "abc"),
                Map.of("from", "2000", "to", "1000"), Map.of("q", "q".repeat(129)), Map.of("q", "a\u0000b"));
        for (Map<String, String> query : refused) {
            String named = query.containsKey("to") ? "to" : query.keySet().iterator().next();
            api.asAdmin().queryParams(query).get("/push/task/list").then().statusCode(200)
                    .body("code", equalTo(10002)).body("message", startsWith(named + ":"));
        }
    }
}
