package io.imcore.push.device;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.QueryParams;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import io.imcore.push.offlinepush.UserPushSettings;
import java.util.List;
import java.util.Map;

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
    private final UserPushSettings offlinePush;

    public DeviceRegistryResource(RequestContext caller, DeviceRegistryService registry, UserPushSettings offlinePush) {
        this.caller = caller;
        this.registry = registry;
        this.offlinePush = offlinePush;
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

    /** The user's offline push settings (docs/offline-push.md). */
    @GET
    @Path("/push/settings")
    public ApiResponse<Map<String, Object>> offlinePushSettings() {
        return ApiResponse.ok(offlinePush.get(caller.appId(), caller.requireUserId()));
    }

    @POST
    @Path("/push/settings")
    public ApiResponse<Map<String, Object>> saveOfflinePushSettings(UserPushSettings.UserSettingsBody body) {
        return ApiResponse.ok(offlinePush.save(caller.appId(), caller.requireUserId(), body));
    }

    /** The user's muted conversations. */
    @GET
    @Path("/push/mute")
    public ApiResponse<List<Long>> mutedConversations() {
        return ApiResponse.ok(offlinePush.mutes(caller.appId(), caller.requireUserId()));
    }

    @POST
    @Path("/push/mute")
    public ApiResponse<Boolean> mute(UserPushSettings.MuteBody body) {
        return ApiResponse.ok(offlinePush.mute(caller.appId(), caller.requireUserId(), body));
    }
}
