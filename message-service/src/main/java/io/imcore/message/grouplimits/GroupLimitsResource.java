package io.imcore.message.grouplimits;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * An app's group limits of the live features (docs/api-decisions.md "Group roles, receipts and typing"), admin token
 * only; the gateway routes /app/group_limits here (deploy/gateway/routes.tsv).
 */
@Path("/app/group_limits")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.ADMIN)
public class GroupLimitsResource {

    private final RequestContext caller;
    private final GroupLimitsService limits;

    public GroupLimitsResource(RequestContext caller, GroupLimitsService limits) {
        this.caller = caller;
        this.limits = limits;
    }

    @GET
    public ApiResponse<GroupLimits> read() {
        return ApiResponse.ok(limits.of(caller.appId()));
    }

    @POST
    public ApiResponse<GroupLimits> save(GroupLimits body) {
        return ApiResponse.ok(limits.save(caller.appId(), body));
    }
}
