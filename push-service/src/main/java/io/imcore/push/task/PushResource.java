package io.imcore.push.task;

import static io.imcore.common.api.QueryParams.optionalLong;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.throttle.AppQuota;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/** Push tasks: admin token only. */
@Path("/push")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class PushResource {

    /** The per-app quota of /push/notify (docs/throttling.md). */
    static final String NOTIFY_QUOTA = "push-notify";

    /** Body of POST /push/task/detail. */
    public record DetailRequest(List<Long> list) {}

    /** data of POST /push/notify. */
    public record Accepted(long taskId) {}

    /** Body of POST /push/task/cancel. */
    public record CancelRequest(Long taskId) {}

    /** data of POST /push/task/cancel. */
    public record Cancelled(long taskId, String state) {}

    static final int DEFAULT_SCHEDULED_LIMIT = 20;
    static final int MAX_SCHEDULED_LIMIT = 100;
    /** Scheduled tasks are few; a deeper offset is surely a mistake. */
    static final int MAX_SCHEDULED_OFFSET = 100_000;

    private final RequestContext caller;
    private final TaskService service;

    public PushResource(RequestContext caller, TaskService service) {
        this.caller = caller;
        this.service = service;
    }

    @POST
    @Path("/notify")
    @AppQuota(NOTIFY_QUOTA)
    public ApiResponse<Accepted> notify(JsonNode body, @HeaderParam("User-Agent") String userAgent) {
        return ApiResponse.ok(new Accepted(service.accept(caller.appId(), body,
                TaskOrigin.of(userAgent, caller.token().tokenVersion()))));
    }

    @POST
    @Path("/task/detail")
    public ApiResponse<List<Map<String, Object>>> detail(DetailRequest body) {
        return ApiResponse.ok(service.details(caller.appId(), body == null ? null : body.list()));
    }

    @GET
    @Path("/task/scheduled")
    public ApiResponse<ScheduledPage> scheduled(@QueryParam("offset") String offset,
            @QueryParam("limit") String limit) {
        return ApiResponse.ok(service.scheduled(caller.appId(),
                (int) optionalLong("offset", offset, 0, 0, MAX_SCHEDULED_OFFSET),
                (int) optionalLong("limit", limit, DEFAULT_SCHEDULED_LIMIT, 1, MAX_SCHEDULED_LIMIT)));
    }

    @POST
    @Path("/task/cancel")
    public ApiResponse<Cancelled> cancel(CancelRequest body) {
        Long taskId = body == null ? null : body.taskId();
        TaskState state = service.cancel(caller.appId(), taskId); // 10002 when taskId is null
        return ApiResponse.ok(new Cancelled(taskId, state.wireName()));
    }
}
