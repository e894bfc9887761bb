package io.imcore.push.stats;

import java.util.List;

/** data of GET /push/task/list: how many tasks match, and the requested page of them. */
public record TaskPage(long total, List<TaskSummary> list) {}
