package io.imcore.push.task;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.push.fanout.Expander;
import io.imcore.pushcontract.Channel;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /push/task/scheduled and POST /push/task/cancel, with the real expander running behind them. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskCancelTest {

    @Inject
    Database database;
    @Inject
    TaskStore tasks;
    @Inject
    TaskService service;
    @Inject
    Expander expander;

    private PushApi api;

    @BeforeEach
    void newApp() {
        api = PushApi.newApp(database);
        long alice = api.newUser();
        api.newDevice(alice, 1);
        api.setOnline(alice, 1); // one svcpush target for every task
    }

    @Test
    void aCancelledScheduledTaskIsNeverExpandedEvenWhenItsTimeComes() {
        long begin = Instant.now().getEpochSecond() + 3_600;
        long task = notifyAt(begin, "Flash sale");
        long later = notifyAt(begin + 3_600, "Later");

        JsonPath scheduled = scheduled(api);
        assertEquals(2, scheduled.getInt("data.total"));
        assertEquals(List.of(task, later), scheduled.getList("data.list.task_id", Long.class), "the soonest first");
        assertEquals(begin, scheduled.getLong("data.list[0].show_begin_time"));
        assertEquals("Flash sale", scheduled.getString("data.list[0].title"));
        assertEquals("all", scheduled.getString("data.list[0].audience"));
        assertEquals("combined", scheduled.getString("data.list[0].strategy"));

        cancel(api, task).body("code", equalTo(200)).body("data.task_id", equalTo((int) task))
                .body("data.state", equalTo("cancelled"));
        cancel(api, task).body("code", equalTo(200)).body("data.state", equalTo("cancelled")); // a retry
        assertEquals(List.of(later), scheduled(api).getList("data.list.task_id", Long.class));

        // its time comes, and the later task's: the expander takes due tasks oldest first, so once it has expanded
        // the later one it has passed the cancelled one
        makeDue(task);
        makeDue(later);
        awaitState(later, "dispatching");
        JsonPath detail = detail(task);
        assertEquals("cancelled", detail.getString("data[0].state"));
        assertTrue(detail.getLong("data[0].finished_at") > 0);
        assertEquals(0, detail.getInt("data[0].progress.devices_expanded"));
        assertEquals(0, detail.getInt("data[0].svcpush_target"));
        assertEquals(List.of(), TopicReader.readAll(Channel.SVCPUSH.topic()).stream()
                .filter(r -> r.key().startsWith(task + ":")).toList(), "no record of a cancelled task");
    }

    @Test
    void cancelAndTheExpanderRaceAndExactlyOneWinsEachTask() throws Exception {
        int count = 40;
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // far ahead: the running expander leaves them alone; this test plays the expander's part itself
            ids.add(notifyAt(Instant.now().getEpochSecond() + 3_600, "race " + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int expanderWins = 0;
        try {
            for (long task : ids) {
                CyclicBarrier start = new CyclicBarrier(2);
                // a random head start for either side, so that each wins some of the races
                long jitterNanos = ThreadLocalRandom.current().nextLong(-1_000_000, 1_000_000);
                Future<Boolean> expanded = pool.submit(() -> {
                    start.await();
                    LockSupport.parkNanos(Math.max(0, jitterNanos));
                    return database.inTransaction(c -> tasks.startExpanding(c, task, 0));
                });
                Future<Boolean> cancelled = pool.submit(() -> {
                    start.await();
                    LockSupport.parkNanos(Math.max(0, -jitterNanos));
                    try {
                        return service.cancel(api.appId, task) == TaskState.CANCELLED;
                    } catch (ApiException e) {
                        assertEquals(ErrorCode.PUSH_TASK_NOT_SCHEDULED, e.errorCode());
                        return false;
                    }
                });
                boolean expanderWon = expanded.get();
                assertNotEquals(expanderWon, cancelled.get(), "task " + task + ": exactly one wins");
                assertEquals(expanderWon ? "expanding" : "cancelled", detail(task).getString("data[0].state"));
                expanderWins += expanderWon ? 1 : 0;
            }
        } finally {
            pool.shutdownNow();
            // the tasks the test left expanding: no expander holds them
            database.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement("delete from push_tasks where app_id = ?")) {
                    ps.setString(1, api.appId);
                    return ps.executeUpdate();
                }
            });
        }
        System.out.printf("cancel raced the expander %d times: the expander won %d%n", count, expanderWins);
    }

    @Test
    void aTaskMadeDueWhileBeingCancelledIsEitherCancelledOrExpandedNeverBoth() throws Exception {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(notifyAt(Instant.now().getEpochSecond() + 3_600, "due " + i));
        }
        long uncancelled = notifyAt(Instant.now().getEpochSecond() + 3_600, "not cancelled");
        ExecutorService pool = Executors.newFixedThreadPool(ids.size());
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            database.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement(
                        "update push_tasks set show_begin_at = now() where app_id = ?")) {
                    ps.setString(1, api.appId);
                    return ps.executeUpdate();
                }
            });
            expander.wake();
            for (long task : ids) {
                answers.add(pool.submit(() -> cancel(api, task).extract().path("code")));
            }
            for (Future<Integer> answer : answers) {
                answer.get();
            }
            // due with the others and the newest, so expanded after them (the expander takes the oldest first)
            awaitState(uncancelled, "dispatching");
            for (int i = 0; i < ids.size(); i++) {
                long task = ids.get(i);
                if (answers.get(i).get() == 200) {
                    assertEquals("cancelled", detail(task).getString("data[0].state"));
                    assertEquals(0, detail(task).getInt("data[0].progress.devices_expanded"));
                } else {
                    assertEquals(12007, answers.get(i).get());
                    assertEquals(1, TopicReader.await(Channel.SVCPUSH.topic(),
                            r -> r.key().startsWith(task + ":"), 1, Duration.ofSeconds(10)).size());
                    assertNotEquals("cancelled", detail(task).getString("data[0].state"));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTaskAlreadyExpandingOrDispatchedCannotBeCancelled() {
        long now = notifyAt(null, "now");
        awaitState(now, "dispatching");
        cancel(api, now).body("code", equalTo(12007))
                .body("message", equalTo("task_id: task " + now + " is dispatching; only a scheduled task can be"
                        + " cancelled"));

        long expanding = notifyAt(Instant.now().getEpochSecond() + 3_600, "expanding");
        database.inTransaction(c -> tasks.startExpanding(c, expanding, 0));
        cancel(api, expanding).body("code", equalTo(12007)).body("message", startsWith("task_id: task " + expanding
                + " is expanding"));
        assertEquals("expanding", detail(expanding).getString("data[0].state"));
        database.inTransaction(c -> { // no expander holds it: finished here so that nothing picks it up
            tasks.finish(c, expanding, TaskState.DONE);
            return null;
        });
    }

    @Test
    void anotherAppsTasksAreNeitherListedNorCancelled() {
        PushApi other = PushApi.newApp(database);
        long theirs = notifyAt(other, Instant.now().getEpochSecond() + 3_600, "theirs");

        assertEquals(0, scheduled(api).getInt("data.total"));
        cancel(api, theirs).body("code", equalTo(10002))
                .body("message", equalTo("task_id: no task of this app has this id"));
        cancel(api, 999_999_999L).body("code", equalTo(10002))
                .body("message", equalTo("task_id: no task of this app has this id"));
        assertEquals("scheduled", other.asAdmin().body("{\"list\":[" + theirs + "]}").post("/push/task/detail")
                .then().extract().path("data[0].state"));
        cancel(other, theirs).body("code", equalTo(200));
    }

    @Test
    void badCallsAreRefusedWithTheEnvelope() {
        api.asAdmin().body("{}").post("/push/task/cancel").then().statusCode(200).body("code", equalTo(10002))
                .body("message", startsWith("task_id:"));
        api.asAdmin().body("{\"task_id\":\"1\"}").post("/push/task/cancel").then().body("code", equalTo(10002));
        api.asAdmin().queryParam("limit", 0).get("/push/task/scheduled").then().body("code", equalTo(10002))
                .body("message", startsWith("limit:"));
        long user = api.newUser();
        api.as(user).body("{\"task_id\":1}").post("/push/task/cancel").then().body("code", equalTo(10010));
        api.as(user).get("/push/task/scheduled").then().body("code", equalTo(10010));
    }

    private long notifyAt(Long begin, String title) {
        return notifyAt(api, begin, title);
    }

    private static long notifyAt(PushApi app, Long begin, String title) {
        String message = "{\"title\":\"" + title + "\"" + (begin == null ? "" : ",\"show_begin_time\":" + begin) + "}";
        JsonPath answer = JsonPath.from(app.asAdmin().body("{\"audience\":\"all\",\"message\":" + message + "}")
                .post("/push/notify").then().statusCode(200).extract().asString());
        assertEquals(200, answer.getInt("code"), answer.prettify());
        return answer.getLong("data.task_id");
    }

    private static JsonPath scheduled(PushApi app) {
        return JsonPath.from(app.asAdmin().get("/push/task/scheduled").then().statusCode(200)
                .body("code", equalTo(200)).extract().asString());
    }

    private static io.restassured.response.ValidatableResponse cancel(PushApi app, long task) {
        return app.asAdmin().body("{\"task_id\":" + task + "}").post("/push/task/cancel").then().statusCode(200);
    }

    private JsonPath detail(long task) {
        return JsonPath.from(api.asAdmin().body("{\"list\":[" + task + "]}").post("/push/task/detail").then()
                .statusCode(200).body("code", equalTo(200)).extract().asString());
    }

    /** The task's begin time is now, and the expander looks for due tasks at once. */
    private void makeDue(long task) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_tasks set show_begin_at = now()"
                    + " where task_id = ?")) {
                ps.setLong(1, task);
                return ps.executeUpdate();
            }
        });
        expander.wake();
    }

    private void awaitState(long task, String state) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!state.equals(detail(task).getString("data[0].state"))) {
            assertTrue(System.nanoTime() < deadline, "task " + task + " never reached " + state);
        }
    }
}
