package io.imcore.message.presence;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** GET /user/online_status: whether the caller (or, for an admin, the user_id header's user) has a live device. */
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
public class OnlineStatusResource {

    private final RequestContext caller;
    private final PresenceService presence;

    public OnlineStatusResource(RequestContext caller, PresenceService presence) {
        this.caller = caller;
        this.presence = presence;
    }

    @GET
    @Path("/online_status")
    public ApiResponse<OnlineStatus> onlineStatus() {
        return ApiResponse.ok(presence.status(caller.appId(), caller.requireUserId()));
    }
}
