package io.imcore.push.task;

import io.imcore.common.store.Database;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * {@code imcore_push_tasks_oldest_seconds{state}}: how long the oldest task of each unfinished state has been due
 * (0 when the state holds none), for the ImcorePushTaskStuck alert (docs/operations.md). Read at most every
 * {@link #CACHE_NANOS} from the partial index of unfinished tasks, whatever the number of scrapes.
 */
@ApplicationScoped
public class TaskAges {

    private static final Logger LOG = Logger.getLogger(TaskAges.class);
    private static final long CACHE_NANOS = 10_000_000_000L;
    private static final List<TaskState> UNFINISHED =
            List.of(TaskState.ACCEPTED, TaskState.SCHEDULED, TaskState.EXPANDING, TaskState.DISPATCHING);

    private final Database database;
    private final TaskStore tasks;
    /** The last read, or null when it failed (the gauges are NaN until a read succeeds). */
    private Map<TaskState, Double> oldest;
    private long readAt = System.nanoTime() - CACHE_NANOS;

    public TaskAges(Database database, TaskStore tasks) {
        this.database = database;
        this.tasks = tasks;
    }

    void register(@Observes StartupEvent event, MeterRegistry registry) {
        for (TaskState state : UNFINISHED) {
            Gauge.builder("imcore.push.tasks.oldest", this, ages -> ages.seconds(state)).baseUnit("seconds")
                    .tag("state", state.wireName())
                    .description("how long the oldest task in the state has been due; 0 when none")
                    .register(registry);
        }
    }

    private synchronized double seconds(TaskState state) {
        if (System.nanoTime() - readAt >= CACHE_NANOS) {
            readAt = System.nanoTime();
            try {
                oldest = database.read(tasks::oldestDueSeconds);
            } catch (RuntimeException e) {
                LOG.debug("task ages not read", e);
                oldest = null;
            }
        }
        return oldest == null ? Double.NaN : oldest.getOrDefault(state, 0.0);
    }
}
