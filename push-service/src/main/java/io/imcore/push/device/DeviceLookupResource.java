package io.imcore.push.device;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.QueryParams;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The app admin's reads of the registry about any user of the app (the console's Users page, docs/push-devices.md
 * "Console reads"). The user is named in the query, not in the {@code user_id} header: the admin reads about the
 * user without acting as him, so a disabled user's devices stay readable, and no answer waits for auth-service's
 * events to reach this service's view of the user.
 */
@Path("/push")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class DeviceLookupResource {

    private final RequestContext caller;
    private final DeviceRegistryService registry;

    public DeviceLookupResource(RequestContext caller, DeviceRegistryService registry) {
        this.caller = caller;
        this.registry = registry;
    }

    /** The users of the app with a device carrying the alias. */
    @GET
    @Path("/alias/users")
    public ApiResponse<AliasUsers> usersWithAlias(@QueryParam("alias") String alias) {
        return ApiResponse.ok(registry.usersWithAlias(caller.appId(), alias));
    }

    /** The provider tokens of a user of the app, as {@code GET /user/token/list} answers them. */
    @GET
    @Path("/user/tokens")
    public ApiResponse<BoundTokenList> boundTokens(@QueryParam("user_id") String userId) {
        return ApiResponse.ok(registry.boundTokens(caller.appId(),
                QueryParams.requiredLong("user_id", userId, 1, Long.MAX_VALUE)));
    }
}
