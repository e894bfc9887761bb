package io.imcore.push.app;

import static io.imcore.common.api.QueryParams.requiredBoolean;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** Reads or switches push on or off for the caller's app (decisions.md section 5); notify while off is refused with 12006. */
@Path("/push/enable")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class PushEnableResource {

    private final RequestContext caller;
    private final PushAppStore apps;

    public PushEnableResource(RequestContext caller, PushAppStore apps) {
        this.caller = caller;
        this.apps = apps;
    }

    @POST
    public ApiResponse<Boolean> enable(@QueryParam("value") String value) {
        apps.setEnabled(caller.appId(), requiredBoolean("value", value));
        return ApiResponse.ok(true);
    }

    /** Answers {@code {enabled}}: an app that never switched push on has it off. */
    @GET
    public ApiResponse<Map<String, Boolean>> state() {
        return ApiResponse.ok(Map.of("enabled", apps.isEnabled(caller.appId())));
    }
}
