package io.imcore.push.stats;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.ZoneOffset;

/** GET /push/task/list and GET /push/stats/daily (docs/push-statistics.md). */
@ApplicationScoped
public class TaskStatsService {

    private final Database database;
    private final TaskListStore tasks;
    private final DailyStatsStore daily;

    public TaskStatsService(Database database, TaskListStore tasks, DailyStatsStore daily) {
        this.database = database;
        this.tasks = tasks;
        this.daily = daily;
    }

    public TaskPage list(String appId, TaskListQuery query) {
        return database.read(c -> tasks.page(c, appId, query));
    }

    /** The last {@code days} UTC days, today included. */
    public DailyStats daily(String appId, int days) {
        LocalDate firstDay = LocalDate.now(ZoneOffset.UTC).minusDays(days - 1L);
        return new DailyStats(database.read(c -> daily.since(c, appId, firstDay)));
    }
}
