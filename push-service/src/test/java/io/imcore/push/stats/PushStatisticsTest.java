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
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The console's statistics over tasks of an app of its own: GET /push/task/list (filters, paging, limits,
 * refusals), the times and failure reasons of POST /push/task/detail, and GET /push/stats/daily.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PushStatisticsTest extends AppPerTest {

    private static final Instant T0 = Instant.parse("2026-10-01T00:00:00Z");

    @Inject
    DailyStatsStore dailyStore;

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
        // target as task/detail reports it: the svcpush device that fell back to Huawei counts once
        assertEquals(9, page.getInt("data.list[1].target"));
        assertEquals(5, page.getInt("data.list[1].sent"));
        assertEquals(2, page.getInt("data.list[1].received"));
        assertEquals(1, page.getInt("data.list[1].failed"));
        assertEquals(1, page.getInt("data.list[1].rejected"));
    }

    @Test
    void measuredTargetLeavesOutTheChannelsWithoutDeliveryReceipts() {
        long unmeasured = task(T0, "done", "a", "x", null);
        long mixed = task(T0.plusSeconds(1), "done", "b", "y", null);
        counts(unmeasured, "ios", 3, 3, 0, 0, 0, 0, 0);
        counts(unmeasured, "cloud", 2, 2, 0, 0, 0, 0, 0);
        counts(mixed, "ios", 3, 3, 0, 0, 0, 0, 0);
        counts(mixed, "vendor_b", 4, 4, 2, 0, 0, 1, 0);
        counts(mixed, "svcpush", 2, 1, 1, 0, 0, 0, 1);

        JsonPath page = list(Map.of());
        assertEquals(List.of(mixed, unmeasured), ids(page));
        // Xiaomi 4 + 1 fallen back, svcpush 2 - 1: APNs' 3 cannot be received
        assertEquals(6, page.getInt("data.list[0].measured_target"));
        assertEquals(3, page.getInt("data.list[0].received"));
        assertEquals(0, page.getInt("data.list[1].measured_target"), "only ios and cloud");
        assertEquals(5, page.getInt("data.list[1].target"));
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
    private void failure(long taskId, String channel, String outcome, String reason, int count) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_failures (task_id, channel, outcome,"
                    + " reason, count) values (?, ?, ?, ?, ?)")) {
                ps.setLong(1, taskId);
                ps.setString(2, channel);
                ps.setString(3, outcome);
                ps.setString(4, reason);
                ps.setInt(5, count);
                return ps.executeUpdate();
            }
        });
    }

    private JsonPath detail(long... taskIds) {
        String list = Arrays.stream(taskIds).mapToObj(Long::toString)
                .collect(Collectors.joining(","));
        return api.asAdmin().body("{\"list\":[" + list + "]}").post("/push/task/detail").then()
                .body("code", equalTo(200)).extract().jsonPath();
    }

    @Test
    void detailCarriesTimesFailedAndRejectedCountersAndTheReasons() {
        Instant finished = T0.plusSeconds(90);
        long done = task(T0, "done", "a", "x", null);
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_tasks set finished_at = ? where task_id = ?")) {
                ps.setTimestamp(1, Timestamp.from(finished));
                ps.setLong(2, done);
                return ps.executeUpdate();
            }
        });
        long running = task(T0.plusSeconds(5), "dispatching", "b", "y", null);
        counts(done, "vendor_b", 6, 2, 0, 3, 1, 0, 0);
        failure(done, "vendor_b", "failed", "http 503", 2);
        failure(done, "vendor_b", "failed", "daily quota spent", 1);
        failure(done, "vendor_b", "rejected", "InvalidRegistration", 1);

        JsonPath detail = detail(done, running);
        assertEquals(T0.toEpochMilli(), detail.getLong("data[0].created_at"));
        assertEquals(finished.toEpochMilli(), detail.getLong("data[0].finished_at"));
        assertEquals(3, detail.getInt("data[0].vendor_b_failed"));
        assertEquals(1, detail.getInt("data[0].vendor_b_rejected"));
        assertEquals(0, detail.getInt("data[0].ios_failed"));
        assertEquals(List.of(
                Map.of("channel", "vendor_b", "outcome", "failed", "reason", "http 503", "count", 2),
                Map.of("channel", "vendor_b", "outcome", "failed", "reason", "daily quota spent", "count", 1),
                Map.of("channel", "vendor_b", "outcome", "rejected", "reason", "InvalidRegistration", "count", 1)),
                detail.getList("data[0].failures"));
        Map<String, Object> open = detail.getMap("data[1]");
        assertEquals(true, open.containsKey("finished_at"));
        assertNull(open.get("finished_at"), "null until final");
        assertEquals(List.of(), detail.getList("data[1].failures"));
        assertEquals(1 + 8 * 5 + 2 + 3, open.size(), "task_id, 40 counters, state, progress, times, failures: "
                + open.keySet());
    }

    private static Instant today(int daysAgo, int hour) {
        return LocalDate.now(ZoneOffset.UTC).minusDays(daysAgo).atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    private JsonPath daily(String days) {
        var request = api.asAdmin();
        if (days != null) {
            request.queryParam("days", days);
        }
        return request.get("/push/stats/daily").then().statusCode(200).body("code", equalTo(200)).extract().jsonPath();
    }

    @Test
    void dailyRowsArePerUtcDayAndChannelOldestFirstWithinTheWindow() {
        long today = task(today(0, 0), "done", "a", "x", null);
        long todayLater = task(today(0, 1), "done", "a", "x", null);
        long lastInWindow = task(today(29, 0), "done", "a", "x", null);
        long beforeWindow = task(today(30, 23), "done", "a", "x", null);
        long onlyTargets = task(today(3, 0), "dispatching", "a", "x", null);
        long empty = task(today(2, 0), "done", "a", "x", null);
        counts(today, "ios", 2, 2, 1, 0, 0, 0, 0);
        counts(todayLater, "ios", 3, 1, 0, 1, 1, 0, 0);
        counts(today, "svcpush", 1, 1, 1, 0, 0, 0, 0);
        counts(lastInWindow, "vendor_a", 5, 4, 0, 0, 1, 0, 0);
        counts(beforeWindow, "vendor_a", 7, 7, 0, 0, 0, 0, 0);
        counts(onlyTargets, "cloud", 4, 0, 0, 0, 0, 0, 0);
        counts(empty, "vendor_c", 0, 0, 0, 0, 0, 0, 0);
        String day0 = LocalDate.now(ZoneOffset.UTC).toString();

        JsonPath month = daily(null);
        assertEquals(List.of(LocalDate.now(ZoneOffset.UTC).minusDays(29).toString(),
                LocalDate.now(ZoneOffset.UTC).minusDays(3).toString(), day0, day0),
                month.getList("data.days.date"));
        assertEquals(List.of("vendor_a", "cloud", "ios", "svcpush"), month.getList("data.days.channel"));
        assertEquals(Map.of("date", day0, "channel", "ios", "target", 5, "sent", 3, "received", 1, "failed", 1,
                "rejected", 1), month.getMap("data.days[2]"));
        assertEquals(List.of("ios", "svcpush"), daily("1").getList("data.days.channel"));
        assertEquals(5, daily("90").getList("data.days").size(), "the day before the 30 is in a 90-day window");
    }

    @Test
    void dailyRefusesAUserTokenAndDaysOutOfRange() {
        api.as(api.newUser()).get("/push/stats/daily").then().body("code", equalTo(10010));
        for (String days : List.of("0", "91", "x", "-1")) {
            api.asAdmin().queryParam("days", days).get("/push/stats/daily").then().statusCode(200)
                    .body("code", equalTo(10002)).body("message", startsWith("days:"));
        }
    }

    /** The measurement behind "a query, no rollup table" (docs/push-statistics.md): 10,000 tasks in 30 days. */
    @Test
    void dailyOverTenThousandTasksIsOneQuickQuery() {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request, created_at)"
                    + " select ?, 'done', '{}'::jsonb, (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')"
                    + " - (i % 30) * interval '1 day' + (i % 600) * interval '1 second'"
                    + " from generate_series(1, 10000) i")) {
                ps.setString(1, api.appId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_counts (task_id, channel, target,"
                    + " sent, received, failed, rejected) select task_id, channel, 10, 8, 5, 1, 1 from push_tasks,"
                    + " unnest(array['ios', 'vendor_a', 'svcpush']) channel where app_id = ?")) {
                ps.setString(1, api.appId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("analyze push_tasks; analyze push_task_counts")) {
                ps.execute();
            }
            return null;
        });
        LocalDate firstDay = LocalDate.now(ZoneOffset.UTC).minusDays(29);
        long[] millis = new long[7];
        List<DailyRow> rows = List.of();
        for (int i = 0; i < millis.length; i++) {
            long started = System.nanoTime();
            rows = database.read(c -> dailyStore.since(c, api.appId, firstDay));
            millis[i] = (System.nanoTime() - started) / 1_000_000;
        }
        Arrays.sort(millis);
        System.out.printf("stats/daily over 10,000 tasks x 3 channels: %d rows, median %d ms, max %d ms%n",
                rows.size(), millis[millis.length / 2], millis[millis.length - 1]);
        assertEquals(30_000 * 8, rows.stream().mapToLong(DailyRow::sent).sum(), "every task of the 30 days counted");
        assertEquals(true, millis[millis.length / 2] < 2_000, "median " + millis[millis.length / 2] + " ms");
    }
}
