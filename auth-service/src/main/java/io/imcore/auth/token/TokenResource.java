package io.imcore.auth.token;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.throttle.ClientAddress;
import io.vertx.core.http.HttpServerRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

/**
 * api.md 4.1-4.3: user tokens by user id, by login name (name, mobile or e-mail) and by user name; wrong passwords
 * are throttled per login name and per client address (docs/throttling.md).
 */
@Path("/token")
@Access(Access.Level.APP)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TokenResource {

    private final TokenService tokens;
    private final RequestContext context;
    private final ClientAddress addresses;

    public TokenResource(TokenService tokens, RequestContext context, ClientAddress addresses) {
        this.tokens = tokens;
        this.context = context;
        this.addresses = addresses;
    }

    @POST
    @Path("/id")
    public ApiResponse<TokenInfo> byUserId(@NotNull(message = "required") @Valid TokenByIdRequest body,
            @Context HttpServerRequest request) {
        return ApiResponse.ok(tokens.byUserId(context.appId(), body.userId(), body.password(), body.deviceGuid(),
                addresses.limitedKey(request)));
    }

    @POST
    @Path("/login")
    public ApiResponse<TokenInfo> byLoginName(@NotNull(message = "required") @Valid TokenByLoginRequest body,
            @Context HttpServerRequest request) {
        return ApiResponse.ok(tokens.byLoginName(context.appId(), body.loginName(), body.password(), body.deviceGuid(),
                addresses.limitedKey(request)));
    }

    @POST
    @Path("/user")
    public ApiResponse<TokenInfo> byUserName(@NotNull(message = "required") @Valid TokenByNameRequest body,
            @Context HttpServerRequest request) {
        return ApiResponse.ok(tokens.byUserName(context.appId(), body.name(), body.password(), body.deviceGuid(),
                addresses.limitedKey(request)));
    }
}
