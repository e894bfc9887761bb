package io.imcore.push.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.push.app.PushAppStore;
import io.imcore.push.notify.Audience;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.notify.Strategy;
import io.imcore.push.task.TaskService.Stored;
import io.imcore.pushcontract.Channel;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.hibernate.Session;
import org.junit.jupiter.api.Test;

/**
 * A new task with a request_id is one transaction: its push_tasks row and its request_id claim commit together or
 * not at all. Without a request_id it is one statement, which stores nothing while push is switched off.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskCreationTransactionTest {

    private static final TaskOrigin API_CALLER = new TaskOrigin(TaskOrigin.API, 1);

    @Inject
    TaskService tasks;

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    @Inject
    Session session;

    @Inject
    PushAppStore apps;

    @Test
    void aFailureAfterBothWritesLeavesNeitherTheTaskNorItsRequestId() {
        String appId = enabledApp();
        AtomicLong rolledBack = new AtomicLong();
        assertThrows(IllegalStateException.class, () -> QuarkusTransaction.requiringNew().run(() -> {
            Stored stored = tasks.store(appId, request("r-1"), TaskState.SCHEDULED, API_CALLER);
            assertTrue(stored.isNew());
            rolledBack.set(stored.taskId());
            // both rows are written on the transaction's one connection before it fails
            assertEquals(1, count("push_tasks where task_id = " + stored.taskId()));
            assertEquals(1, count("push_request_ids where app_id = '" + appId + "'"));
            throw new IllegalStateException("fails after the entity and the request_id claim were written");
        }));
        assertEquals(0, readCount("push_tasks where task_id = " + rolledBack.get()));
        assertEquals(0, readCount("push_request_ids where app_id = '" + appId + "'"), "the claim rolled back too");

        // the request_id is free again: the next task with it is stored, and the claim names that task
        Stored again = tasks.store(appId, request("r-1"), TaskState.SCHEDULED, API_CALLER);
        assertTrue(again.isNew());
        assertNotEquals(rolledBack.get(), again.taskId());
        assertEquals(1, readCount("push_request_ids where app_id = '" + appId + "' and task_id = " + again.taskId()));
    }

    @Test
    void aRequestIdHeldByAnotherTaskRollsBackTheNewEntity() {
        String appId = enabledApp();
        Stored first = tasks.store(appId, request("r-2"), TaskState.SCHEDULED, API_CALLER);
        Stored second = tasks.store(appId, request("r-2"), TaskState.SCHEDULED, API_CALLER);
        assertFalse(second.isNew());
        assertEquals(first.taskId(), second.taskId(), "the repeat answers with the first task");
        assertEquals(1, readCount("push_tasks where app_id = '" + appId + "'"), "the repeat's own task is gone");
    }

    @Test
    void pushSwitchedOffStoresNoTaskWithOrWithoutARequestId() {
        String appId = enabledApp();
        apps.setEnabled(appId, false);
        for (String requestId : new String[] {null, "r-3"}) {
            ApiException refused = assertThrows(ApiException.class,
                    () -> tasks.store(appId, request(requestId), TaskState.SCHEDULED, API_CALLER));
            assertEquals(ErrorCode.PUSH_NOT_ENABLED, refused.errorCode());
        }
        String never = "tasktx-never" + System.nanoTime(); // no push_apps row: push was never switched on
        assertThrows(ApiException.class, () -> tasks.store(never, request(null), TaskState.SCHEDULED, API_CALLER));
        assertEquals(0, readCount("push_tasks where app_id in ('" + appId + "', '" + never + "')"));
        assertEquals(0, readCount("push_request_ids where app_id = '" + appId + "'"));

        apps.setEnabled(appId, true);
        PushRequest scheduled = request(null);
        Stored stored = tasks.store(appId, scheduled, TaskState.SCHEDULED, API_CALLER);
        assertTrue(stored.isNew());
        assertEquals(1, readCount("push_tasks where app_id = '" + appId + "' and task_id = " + stored.taskId()
                + " and state = 'scheduled' and show_begin_at = to_timestamp(" + scheduled.showBeginTime() + ")"
                + " and show_end_at is null and request->>'strategy' is not null"));
    }

    private String enabledApp() {
        String appId = "tasktx" + System.nanoTime();
        apps.setEnabled(appId, true);
        return appId;
    }

    /** A request scheduled far ahead, so the running expander leaves its task alone. */
    private PushRequest request(String requestId) {
        return new PushRequest(Audience.all(), requestId, Strategy.OSPUSH_ONLY, List.of(Channel.FCM),
                mapper.createObjectNode().put("type", "text").put("title", "t").put("body", "b"),
                System.currentTimeMillis() / 1000 + 86_400, null, null);
    }

    /** Rows matching, seen from outside any transaction of the test. */
    private long readCount(String from) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from " + from);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** Rows matching, seen inside the current transaction (on its connection). */
    private long count(String from) {
        return session.doReturningWork(c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from " + from);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }
}
