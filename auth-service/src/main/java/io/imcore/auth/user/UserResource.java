package io.imcore.auth.user;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.QueryParams;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.throttle.ClientAddress;
import io.vertx.core.http.HttpServerRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Users of an app: self-registration (limited per client address), admin batch registration and (dis)abling,
 * password change (throttled like a login), devices. The admin batch is not limited per address: it needs the app's
 * admin token, which only the app's own servers hold, and is bounded by im.auth.batch-register-max entries and
 * im.auth.batch-register-budget per call. The admin finds a user by id or user name ({@code GET /user/info}),
 * disabled users included.
 */
@Path("/user")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class UserResource {

    private static final Pattern USERNAME = Pattern.compile(UserFieldRules.USERNAME);

    private final UserService users;
    private final BatchRegistration batches;
    private final RequestContext context;
    private final ClientAddress addresses;

    public UserResource(UserService users, BatchRegistration batches, RequestContext context,
            ClientAddress addresses) {
        this.users = users;
        this.batches = batches;
        this.context = context;
        this.addresses = addresses;
    }

    @POST
    @Path("/register/v2")
    @Access(Access.Level.APP)
    public ApiResponse<RegisteredUser> register(@NotNull(message = "required") @Valid RegisterRequest body,
            @Context HttpServerRequest request) {
        return ApiResponse.ok(users.register(context.appId(), body, addresses.limitedKey(request)));
    }

    @POST
    @Path("/register/batch")
    @Access(Access.Level.ADMIN)
    public ApiResponse<List<BatchResult>> registerBatch(@NotNull(message = "required") @Valid BatchRegisterRequest body) {
        return ApiResponse.ok(batches.register(context.appId(), body.list()));
    }

    @PUT
    @Path("/disable")
    @Access(Access.Level.ADMIN)
    public ApiResponse<Boolean> disable(@NotNull(message = "required") @Valid UserIdList body) {
        users.setDisabled(context.appId(), body.list(), true);
        return ApiResponse.ok(true);
    }

    @PUT
    @Path("/enable")
    @Access(Access.Level.ADMIN)
    public ApiResponse<Boolean> enable(@NotNull(message = "required") @Valid UserIdList body) {
        users.setDisabled(context.appId(), body.list(), false);
        return ApiResponse.ok(true);
    }

    @POST
    @Path("/revoke_tokens")
    @Access(Access.Level.ADMIN)
    public ApiResponse<Boolean> revokeTokens(@NotNull(message = "required") @Valid UserIdList body) {
        users.revokeTokens(context.appId(), body.list());
        return ApiResponse.ok(true);
    }

    @POST
    @Path("/change_password")
    public ApiResponse<Boolean> changePassword(@NotNull(message = "required") @Valid ChangePasswordRequest body,
            @Context HttpServerRequest request) {
        users.changePassword(context.appId(), context.requireUserId(), body.oldPassword(), body.newPassword(),
                addresses.limitedKey(request));
        return ApiResponse.ok(true);
    }

    /**
     * One user of the admin's app by {@code user_id} or by {@code username} (exactly one of them): the account and its
     * devices. The user is named in the query, not in the {@code user_id} header, so a disabled user is readable
     * too (acting as him would be 10014); another app's user is 10000 like an unknown one.
     */
    @GET
    @Path("/info")
    @Access(Access.Level.ADMIN)
    public ApiResponse<UserProfile> info(@QueryParam("user_id") String userId, @QueryParam("username") String username) {
        boolean byId = userId != null && !userId.isBlank();
        boolean byName = username != null && !username.isBlank();
        if (byId == byName) {
            throw ApiException.badParameter(byId ? "username" : "user_id",
                    byId ? "give user_id or username, not both" : "user_id or username required");
        }
        if (byId) {
            return ApiResponse.ok(users.profile(context.appId(),
                    QueryParams.requiredLong("user_id", userId, 1, Long.MAX_VALUE)));
        }
        String name = username.strip();
        if (!USERNAME.matcher(name).matches()) {
            throw ApiException.badParameter("username", UserFieldRules.USERNAME_RULE);
        }
        return ApiResponse.ok(users.profile(context.appId(), name));
    }

    @GET
    @Path("/device/list")
    public ApiResponse<List<DeviceInfo>> devices() {
        return ApiResponse.ok(users.devices(context.requireUserId()));
    }
}
