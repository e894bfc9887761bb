package io.imcore.push.task;

import io.imcore.common.concurrent.ThrottledRead;
import io.imcore.common.store.Database;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code imcore_push_tasks_oldest_seconds{state}}: how long the oldest task of each unfinished state has been due
 * (0 when the state holds none), for the ImcorePushTaskStuck alert (docs/operations.md). Read from the partial
 * index of unfinished tasks at most every 10 s, whatever the number of scrapes.
 */
@ApplicationScoped
public class TaskAges {

    private static final List<TaskState> UNFINISHED =
            List.of(TaskState.ACCEPTED, TaskState.SCHEDULED, TaskState.EXPANDING, TaskState.DISPATCHING);

    private final ThrottledRead<Map<TaskState, Double>> oldest;

    public TaskAges(Database database, TaskStore tasks) {
        this.oldest = new ThrottledRead<>("task ages", Duration.ofSeconds(10),
                () -> database.read(tasks::oldestDueSeconds));
    }

    void register(@Observes StartupEvent event, MeterRegistry registry) {
        for (TaskState state : UNFINISHED) {
            Gauge.builder("imcore.push.tasks.oldest", this, ages -> ages.seconds(state)).baseUnit("seconds")
                    .tag("state", state.wireName())
                    .description("how long the oldest task in the state has been due; 0 when none")
                    .register(registry);
        }
    }

    private double seconds(TaskState state) {
        return oldest.get().map(ages -> ages.getOrDefault(state, 0.0)).orElse(Double.NaN);
    }
}
