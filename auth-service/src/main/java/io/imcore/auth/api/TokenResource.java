package io.imcore.auth.api;

import io.imcore.auth.api.Dtos.TokenByIdRequest;
import io.imcore.auth.api.Dtos.TokenByLoginRequest;
import io.imcore.auth.api.Dtos.TokenByNameRequest;
import io.imcore.auth.api.Dtos.TokenInfo;
import io.imcore.auth.service.TokenService;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** api.md 4.1-4.3: user tokens by user id, by login name (name, mobile or e-mail) and by user name. */
@Path("/token")
@Access(Access.Level.APP)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class TokenResource {

    private final TokenService tokens;
    private final RequestContext context;

    public TokenResource(TokenService tokens, RequestContext context) {
        this.tokens = tokens;
        this.context = context;
    }

    @POST
    @Path("/id")
    public ApiResponse<TokenInfo> byUserId(@NotNull(message = "required") @Valid TokenByIdRequest body) {
        return ApiResponse.ok(tokens.byUserId(context.appId(), body.userId(), body.password(), body.deviceGuid()));
    }

    @POST
    @Path("/login")
    public ApiResponse<TokenInfo> byLoginName(@NotNull(message = "required") @Valid TokenByLoginRequest body) {
        return ApiResponse.ok(tokens.byLoginName(context.appId(), body.loginName(), body.password(), body.deviceGuid()));
    }

    @POST
    @Path("/user")
    public ApiResponse<TokenInfo> byUserName(@NotNull(message = "required") @Valid TokenByNameRequest body) {
        return ApiResponse.ok(tokens.byUserName(context.appId(), body.name(), body.password(), body.deviceGuid()));
    }
}
