package io.imcore.push.stats;

import io.imcore.common.api.ApiException;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** GET /push/task/list, GET /push/task/history and GET /push/stats/daily (docs/push-statistics.md). */
@ApplicationScoped
public class TaskStatsService {

    private final Database database;
    private final TaskListStore tasks;
    private final DailyStatsStore daily;
    private final TaskHistoryStore histories;

    public TaskStatsService(Database database, TaskListStore tasks, DailyStatsStore daily,
            TaskHistoryStore histories) {
        this.database = database;
        this.tasks = tasks;
        this.daily = daily;
        this.histories = histories;
    }

    public TaskPage list(String appId, TaskListQuery query) {
        return database.read(c -> tasks.page(c, appId, query));
    }

    /** The app's task; an unknown id and another app's get the same 10002. */
    public TaskHistory history(String appId, long taskId) {
        return database.read(c -> histories.find(c, appId, taskId))
                .orElseThrow(() -> ApiException.badParameter("task_id", "no such task in this app"));
    }

    /** The last {@code days} UTC days, today included. */
    public DailyStats daily(String appId, int days) {
        LocalDate firstDay = LocalDate.now(ZoneOffset.UTC).minusDays(days - 1L);
        return new DailyStats(database.read(c -> daily.since(c, appId, firstDay)));
    }
}
