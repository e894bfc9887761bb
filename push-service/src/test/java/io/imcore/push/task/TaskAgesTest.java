package io.imcore.push.task;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How long the oldest task of each unfinished state has been due: the ImcorePushTaskStuck alert's series. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TaskAgesTest {

    private static final String APP = "task-ages-test";

    @Inject
    TaskStore tasks;

    @Inject
    Database database;

    @Test
    void theOldestDueTaskOfAStateCountsFromItsShowBeginTimeAndAFinishedOneCountsNowhere() {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("""
                    insert into push_tasks (app_id, state, request, created_at, show_begin_at) values
                      (?, 'dispatching', '{}', now() - interval '4000 days', now() - interval '3000 days'),
                      (?, 'done', '{}', now() - interval '5000 days', null)""")) {
                ps.setString(1, APP);
                ps.setString(2, APP);
                return ps.executeUpdate();
            }
        });
        try {
            Map<TaskState, Double> oldest = database.read(tasks::oldestDueSeconds);
            double dispatching = oldest.get(TaskState.DISPATCHING);
            // due since its show_begin_time (3000 days), not since it was stored (4000 days); older than any task
            // other tests of this JVM leave, so it is the oldest of its state
            double due = 3000 * 86_400.0;
            assertTrue(dispatching >= due && dispatching < due + 3_600, "dispatching " + dispatching);
            assertTrue(oldest.values().stream().allMatch(age -> age < 5000 * 86_400.0),
                    "a done task counted: " + oldest);
            assertFalse(oldest.containsKey(TaskState.DONE));
        } finally {
            database.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement("delete from push_tasks where app_id = ?")) {
                    ps.setString(1, APP);
                    return ps.executeUpdate();
                }
            });
        }
    }
}
