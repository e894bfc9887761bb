package io.imcore.push.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/**
 * The end of an expansion when push-worker was faster: the expander's final update completes the task itself
 * (push-worker only completes tasks it sees dispatching).
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskCompletionTest {

    @Inject
    Database database;

    @Inject
    TaskStore tasks;

    private long task(int batchesTotal, int batchesDone, int batchesExpired) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request,"
                    + " batches_total, batches_done, batches_expired) values ('completion-app', 'expanding',"
                    + " '{}'::jsonb, ?, ?, ?) returning task_id")) {
                ps.setInt(1, batchesTotal);
                ps.setInt(2, batchesDone);
                ps.setInt(3, batchesExpired);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private String[] finish(long task, TaskState state) {
        return database.inTransaction(c -> {
            tasks.finish(c, task, state);
            try (PreparedStatement ps = c.prepareStatement(
                    "select state, finished_at::text from push_tasks where task_id = ?")) {
                ps.setLong(1, task);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new String[] {rs.getString(1), rs.getString(2)};
                }
            }
        });
    }

    @Test
    void everyBatchAlreadyProcessedMeansDone() {
        String[] row = finish(task(3, 3, 0), TaskState.DISPATCHING);
        assertEquals("done", row[0]);
        assertNotNull(row[1]);
    }

    @Test
    void batchesLeftMeansDispatching() {
        String[] row = finish(task(3, 2, 0), TaskState.DISPATCHING);
        assertEquals("dispatching", row[0]);
        assertNull(row[1]);
    }

    @Test
    void aBatchSkippedAfterShowEndTimeMeansExpired() {
        assertEquals("expired", finish(task(2, 2, 1), TaskState.DISPATCHING)[0]);
    }

    @Test
    void otherFinalStatesAreKeptAsGiven() {
        assertEquals("expired", finish(task(5, 1, 0), TaskState.EXPIRED)[0]);
        assertEquals("done", finish(task(0, 0, 0), TaskState.DONE)[0]);
    }
}
