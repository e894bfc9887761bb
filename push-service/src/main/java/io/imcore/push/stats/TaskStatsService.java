package io.imcore.push.stats;

import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;

/** GET /push/task/list and GET /push/stats/daily (docs/push-statistics.md). */
@ApplicationScoped
public class TaskStatsService {

    private final Database database;
    private final TaskListStore tasks;

    public TaskStatsService(Database database, TaskListStore tasks) {
        this.database = database;
        this.tasks = tasks;
    }

    public TaskPage list(String appId, TaskListQuery query) {
        return database.read(c -> tasks.page(c, appId, query));
    }
}
