package io.imcore.push.stats;

import static io.imcore.common.api.QueryParams.optionalLong;
import static io.imcore.common.api.QueryParams.requiredLong;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.push.task.TaskState;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The console's push statistics (docs/push-statistics.md): admin token only. */
@Path("/push")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class TaskStatsResource {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;
    /** Deeper pages cost a scan of everything before them; the console narrows by time instead. */
    static final int MAX_OFFSET = 100_000;
    static final int MAX_TEXT = 128;
    static final int DEFAULT_DAYS = 30;
    static final int MAX_DAYS = 90;
    /** 9999-12-31T23:59:59.999Z: beyond it PostgreSQL cannot compare a timestamp. */
    static final long MAX_TIME = 253_402_300_799_999L;

    private final RequestContext caller;
    private final TaskStatsService service;

    public TaskStatsResource(RequestContext caller, TaskStatsService service) {
        this.caller = caller;
        this.service = service;
    }

    /** The app's tasks, newest first, filtered by acceptance time [from, to), state and text. */
    @GET
    @Path("/task/list")
    public ApiResponse<TaskPage> list(@QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("state") String state, @QueryParam("q") String text, @QueryParam("offset") String offset,
            @QueryParam("limit") String limit) {
        Instant since = time("from", from);
        Instant until = time("to", to);
        if (since != null && until != null && until.isBefore(since)) {
            throw ApiException.badParameter("to", "must not be before from");
        }
        TaskListQuery query = new TaskListQuery(since, until, state(state), text(text),
                (int) optionalLong("offset", offset, 0, 0, MAX_OFFSET),
                (int) optionalLong("limit", limit, DEFAULT_LIMIT, 1, MAX_LIMIT));
        return ApiResponse.ok(service.list(caller.appId(), query));
    }

    /** What a task sent (its request), who sent it, and its deliveries over time. */
    @GET
    @Path("/task/history")
    public ApiResponse<TaskHistory> history(@QueryParam("task_id") String taskId) {
        return ApiResponse.ok(service.history(caller.appId(), requiredLong("task_id", taskId, 1, Long.MAX_VALUE)));
    }

    /** Sums per UTC day of acceptance and channel over the last {@code days} days (today included). */
    @GET
    @Path("/stats/daily")
    public ApiResponse<DailyStats> daily(@QueryParam("days") String days) {
        return ApiResponse.ok(service.daily(caller.appId(),
                (int) optionalLong("days", days, DEFAULT_DAYS, 1, MAX_DAYS)));
    }

    private static Instant time(String name, String value) {
        return value == null || value.isBlank() ? null : Instant.ofEpochMilli(optionalLong(name, value, 0, 0, MAX_TIME));
    }

    private static TaskState state(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        for (TaskState state : TaskState.values()) {
            if (state.wireName().equals(value)) {
                return state;
            }
        }
        throw ApiException.badParameter("state", "must be one of " + Arrays.stream(TaskState.values())
                .map(TaskState::wireName).collect(Collectors.joining(", ")));
    }

    private static String text(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.codePointCount(0, value.length()) > MAX_TEXT) {
            throw ApiException.badParameter("q", "at most " + MAX_TEXT + " characters");
        }
        StorableText.check("q", value);
        return value;
    }
}
