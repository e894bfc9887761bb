package io.imcore.common.context;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.security.TokenClaims;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Checks the caller of every API request against the endpoint's {@link Access} level and fills the
 * {@link RequestContext}. Order of checks: app (40000), token present (10003), token valid for this app and
 * not revoked (10008), user enabled (10014), role and admin-only headers (10010).
 */
public class RequestContextFilter {

    public static final String APP_ID = "app_id";
    public static final String ACCESS_TOKEN = "access-token";
    public static final String USER_ID = "user_id";
    public static final String GROUP_ID = "group_id";
    public static final String PLATFORM_KEY = "platform-key";

    @Inject
    RequestContext context;

    @Inject
    TokenAuthenticator authenticator;

    @ConfigProperty(name = "im.platform-key")
    Optional<String> platformKey;

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public void authenticate(ContainerRequestContext request, ResourceInfo resource) {
        Method method = resource.getResourceMethod();
        if (method == null) {
            return;
        }
        Access access = method.getAnnotation(Access.class);
        if (access == null) {
            access = resource.getResourceClass().getAnnotation(Access.class);
        }
        Access.Level level = access == null ? Access.Level.USER : access.value();
        switch (level) {
            case PLATFORM -> checkPlatformKey(request.getHeaderString(PLATFORM_KEY));
            case CALLBACK, PUBLIC -> { }
            case APP -> context.set(authenticator.knownApp(request.getHeaderString(APP_ID)), null, null, null);
            case USER, ADMIN -> authenticateToken(request, level);
        }
    }

    private void checkPlatformKey(String given) {
        String expected = platformKey.orElse("");
        boolean matches = !expected.isEmpty() && given != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
        if (!matches) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "platform-key missing or wrong");
        }
    }

    private void authenticateToken(ContainerRequestContext request, Access.Level level) {
        String appId = authenticator.knownApp(request.getHeaderString(APP_ID));
        TokenClaims token = authenticator.authenticate(appId, request.getHeaderString(ACCESS_TOKEN));
        Long actingUser = idHeader(request, USER_ID);
        Long actingGroup = idHeader(request, GROUP_ID);
        if (token.isAdmin()) {
            if (actingUser != null) {
                authenticator.checkActingUser(appId, actingUser);
            }
        } else {
            if (actingUser != null || actingGroup != null) {
                throw new ApiException(ErrorCode.NO_PERMISSION, "user_id and group_id headers need an admin token");
            }
            if (level == Access.Level.ADMIN) {
                throw new ApiException(ErrorCode.NO_PERMISSION, "admin token required");
            }
        }
        context.set(appId, token, actingUser, actingGroup);
    }

    private static Long idHeader(ContainerRequestContext request, String name) {
        String value = request.getHeaderString(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            long id = Long.parseLong(value.trim());
            if (id <= 0) {
                throw new NumberFormatException();
            }
            return id;
        } catch (NumberFormatException e) {
            throw new ApiException(ErrorCode.BAD_PARAMETER, name + ": header must be a positive integer");
        }
    }
}
