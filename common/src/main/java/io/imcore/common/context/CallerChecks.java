package io.imcore.common.context;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.security.TokenClaims;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The caller checks of one API request against an endpoint's {@link Access} level, shared by the JAX-RS filter
 * ({@link RequestContextFilter}) and the plain Vert.x routes ({@code PlainRoutes}). Order of
 * checks: app (40000), token present (10003), token valid for this app and not revoked (10008), user enabled
 * (10014), role and admin-only headers (10010).
 */
@ApplicationScoped
public class CallerChecks {

    public static final String APP_ID = "app_id";
    public static final String ACCESS_TOKEN = "access-token";
    public static final String USER_ID = "user_id";
    public static final String GROUP_ID = "group_id";
    public static final String PLATFORM_KEY = "platform-key";
    public static final String INTERNAL_KEY = "internal-key";

    private final TokenAuthenticator authenticator;
    private final Optional<String> platformKey;
    private final Optional<String> internalKey;

    public CallerChecks(TokenAuthenticator authenticator,
            @ConfigProperty(name = "im.platform-key") Optional<String> platformKey,
            @ConfigProperty(name = "im.internal-key") Optional<String> internalKey) {
        this.authenticator = authenticator;
        this.platformKey = platformKey;
        this.internalKey = internalKey;
    }

    /** Checks the caller named by {@code headers} (a header's value by name, null when absent) and fills {@code into}. */
    public void check(Access.Level level, UnaryOperator<String> headers, RequestContext into) {
        switch (level) {
            case PLATFORM -> checkSecret(PLATFORM_KEY, platformKey, headers.apply(PLATFORM_KEY));
            case INTERNAL -> checkSecret(INTERNAL_KEY, internalKey, headers.apply(INTERNAL_KEY));
            case CALLBACK, PUBLIC -> { }
            case APP -> into.set(authenticator.knownApp(headers.apply(APP_ID)), null, null, null);
            case USER, ADMIN -> authenticateToken(headers, level, into);
        }
    }

    /** The header {@code header} must hold the configured secret; an unset secret refuses every caller. */
    private static void checkSecret(String header, Optional<String> secret, String given) {
        String expected = secret.orElse("");
        boolean matches = !expected.isEmpty() && given != null && MessageDigest.isEqual(
                expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
        if (!matches) {
            throw new ApiException(ErrorCode.NO_PERMISSION, header + " missing or wrong");
        }
    }

    private void authenticateToken(UnaryOperator<String> headers, Access.Level level, RequestContext into) {
        String appId = authenticator.knownApp(headers.apply(APP_ID));
        TokenClaims token = authenticator.authenticate(appId, headers.apply(ACCESS_TOKEN));
        Long actingUser = idHeader(headers, USER_ID);
        Long actingGroup = idHeader(headers, GROUP_ID);
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
        into.set(appId, token, actingUser, actingGroup);
    }

    private static Long idHeader(UnaryOperator<String> headers, String name) {
        String value = headers.apply(name);
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
