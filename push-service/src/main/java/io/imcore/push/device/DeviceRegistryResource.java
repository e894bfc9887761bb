package io.imcore.push.device;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.QueryParams;
import io.imcore.common.context.RequestContext;
import io.imcore.push.device.Dtos.AliasRequest;
import io.imcore.push.device.Dtos.BindRequest;
import io.imcore.push.device.Dtos.BoundTokenList;
import io.imcore.push.device.Dtos.PushSetting;
import io.imcore.push.device.Dtos.TagsRequest;
import io.imcore.push.device.Dtos.UnbindRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * The device push registry (decisions.md section 5, docs/push-devices.md): provider token binding, tags, alias and
 * the user's opt-out. A user token, or an admin token with the {@code user_id} header, acts as that user.
 */
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class DeviceRegistryResource {

    private final RequestContext caller;
    private final DeviceRegistryService registry;

    public DeviceRegistryResource(RequestContext caller, DeviceRegistryService registry) {
        this.caller = caller;
        this.registry = registry;
    }

    @POST
    @Path("/token/bind")
    public ApiResponse<Boolean> bind(BindRequest body) {
        return ApiResponse.ok(registry.bind(caller, body));
    }

    @PUT
    @Path("/token/bind")
    public ApiResponse<Boolean> bindByPut(BindRequest body) {
        return bind(body);
    }

    @GET
    @Path("/token/list")
    public ApiResponse<BoundTokenList> boundTokens() {
        return ApiResponse.ok(registry.boundTokens(caller));
    }

    @POST
    @Path("/token/unbind")
    public ApiResponse<Boolean> unbind(UnbindRequest body) {
        return ApiResponse.ok(registry.unbind(caller, body));
    }

    @DELETE
    @Path("/token/unbind")
    public ApiResponse<Boolean> unbindByDelete(UnbindRequest body) {
        return unbind(body);
    }

    @GET
    @Path("/push/tag")
    public ApiResponse<List<String>> tags() {
        return ApiResponse.ok(registry.tags(caller));
    }

    @POST
    @Path("/push/tag")
    public ApiResponse<List<String>> addTags(TagsRequest body) {
        return ApiResponse.ok(registry.addTags(caller, body));
    }

    @DELETE
    @Path("/push/tag")
    public ApiResponse<List<String>> removeTags(TagsRequest body) {
        return ApiResponse.ok(registry.removeTags(caller, body));
    }

    @POST
    @Path("/push/alias")
    public ApiResponse<Boolean> alias(AliasRequest body) {
        return ApiResponse.ok(registry.setAlias(caller, body));
    }

    /** The user's opt-out: {@code value=true} means NO pushes to any of the user's devices; false opts back in. */
    @POST
    @Path("/push")
    public ApiResponse<Boolean> optOut(@QueryParam("value") String value) {
        return ApiResponse.ok(registry.setPushDisabled(caller, QueryParams.requiredBoolean("value", value)));
    }

    @GET
    @Path("/push")
    public ApiResponse<PushSetting> pushSetting() {
        return ApiResponse.ok(registry.pushSetting(caller));
    }
}
