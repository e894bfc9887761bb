package io.imcore.common.context;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.security.TokenClaims;
import jakarta.enterprise.context.RequestScoped;

/**
 * Who is calling, filled by {@link CallerChecks} before any resource runs: the request-scoped bean by
 * {@link RequestContextFilter} for JAX-RS resources, one instance per request for a plain route. For an admin token the
 * {@code user_id} and {@code group_id} headers say whom the admin acts as (decisions.md section 3).
 */
@RequestScoped
public class RequestContext {

    private String appId;
    private TokenClaims token;
    private Long actingUserId;
    private Long actingGroupId;

    void set(String appId, TokenClaims token, Long actingUserId, Long actingGroupId) {
        this.appId = appId;
        this.token = token;
        this.actingUserId = actingUserId;
        this.actingGroupId = actingGroupId;
    }

    public String appId() {
        return appId;
    }

    public boolean isAdmin() {
        return token != null && token.isAdmin();
    }

    public TokenClaims token() {
        return token;
    }

    /** The user the call is made as: the token's user, or for an admin the {@code user_id} header; null if none. */
    public Long userIdOrNull() {
        if (token == null) {
            return null;
        }
        return token.isAdmin() ? actingUserId : token.userId();
    }

    /** Like {@link #userIdOrNull()} but an admin without a {@code user_id} header gets a 10002. */
    public long requireUserId() {
        Long id = userIdOrNull();
        if (id == null) {
            throw new ApiException(ErrorCode.BAD_PARAMETER, "user_id: header required when calling with an admin token");
        }
        return id;
    }

    /** The group an admin acts for ({@code group_id} header), or null. */
    public Long actingGroupId() {
        return actingGroupId;
    }

    /** The caller's device, when its token was issued for one. */
    public Integer deviceSn() {
        return token == null || token.isAdmin() ? null : token.deviceSn();
    }
}
