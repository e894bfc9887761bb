package io.imcore.auth.app;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.CallerChecks;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Operator endpoints (header platform-key): create and list apps, rotate an app's admin token. */
@Path("/app")
@Access(Access.Level.PLATFORM)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AppResource {

    private final AppService apps;

    public AppResource(AppService apps) {
        this.apps = apps;
    }

    @POST
    @Path("/create")
    public ApiResponse<AppCredentials> create(@Valid CreateAppRequest body) {
        return ApiResponse.ok(apps.create(body == null ? null : body.name()));
    }

    @POST
    @Path("/admin_token")
    public ApiResponse<AppCredentials> rotateAdminToken(@HeaderParam(CallerChecks.APP_ID) String appId) {
        return ApiResponse.ok(apps.rotateAdminToken(appId));
    }

    @GET
    @Path("/list")
    public ApiResponse<AppList> list() {
        return ApiResponse.ok(apps.list());
    }
}
