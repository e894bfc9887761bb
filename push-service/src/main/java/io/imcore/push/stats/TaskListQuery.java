package io.imcore.push.stats;

import io.imcore.push.task.TaskState;
import java.time.Instant;

/**
 * The filters and page of GET /push/task/list, already checked.
 *
 * @param from   acceptance time, inclusive; null = no lower bound
 * @param to     acceptance time, exclusive; null = no upper bound
 * @param state  null = any state
 * @param text   case-insensitive substring of the title, the body or the request_id; null = any
 */
public record TaskListQuery(Instant from, Instant to, TaskState state, String text, int offset, int limit) {}
