package io.imcore.message.sync;

import static io.imcore.common.api.QueryParams.optionalLong;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * GET /message/sync: the caller's changes after a cursor; GET /message/recent_events: the newest of them
 * (docs/api-decisions.md "Sync").
 */
@Path("/message")
@Produces(MediaType.APPLICATION_JSON)
public class SyncResource {

    private static final int RECENT_LIMIT = 20;

    private final RequestContext caller;
    private final SyncService sync;

    public SyncResource(RequestContext caller, SyncService sync) {
        this.caller = caller;
        this.sync = sync;
    }

    /** cursor: from an earlier answer or event (absent: from the oldest change kept); limit 1..500, default 100. */
    @GET
    @Path("/sync")
    public ApiResponse<SyncPage> sync(@QueryParam("cursor") String cursor, @QueryParam("limit") String limit) {
        int size = (int) optionalLong("limit", limit, SyncService.DEFAULT_LIMIT, 1, SyncService.MAX_LIMIT);
        return ApiResponse.ok(sync.sync(caller.appId(), caller.requireUserId(), cursor == null || cursor.isEmpty()
                ? null : cursor, size));
    }

    /** The caller's newest events (limit 1..500, default 20), oldest first; the cursor is the newest's. */
    @GET
    @Path("/recent_events")
    public ApiResponse<SyncPage> recent(@QueryParam("limit") String limit) {
        int size = (int) optionalLong("limit", limit, RECENT_LIMIT, 1, SyncService.MAX_LIMIT);
        return ApiResponse.ok(sync.recent(caller.appId(), caller.requireUserId(), size));
    }
}
