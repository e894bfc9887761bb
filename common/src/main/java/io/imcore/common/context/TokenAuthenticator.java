package io.imcore.common.context;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.security.TokenClaims;
import io.imcore.common.security.TokenVerifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The caller checks shared by the HTTP request filter and message-service's live connection: app (40000),
 * token present (10003), token valid for this app and not revoked (10008), user enabled (10014).
 */
@ApplicationScoped
public class TokenAuthenticator {

    private static final int KNOWN_APPS_MAX = 100_000;
    private static final int UNKNOWN_APPS_MAX = 10_000;

    private final Supplier<TokenVerifier> verifier;
    private final Supplier<IdentityDirectory> directory;
    /** Apps are never deleted, so an app once found exists for good: this saves a query on most requests. */
    private final Set<String> knownApps = ConcurrentHashMap.newKeySet();
    /**
     * App ids found unknown a moment ago: a client repeating one costs no database read, and no call to
     * auth-service, until the entry expires ({@code im.unknown-app-ttl}). App ids are generated at creation, so
     * a new app is not hidden by an entry unless its id was tried before it existed, and then only that long.
     */
    private final ExpiringCache<String, Boolean> unknownApps;

    @Inject
    public TokenAuthenticator(Instance<TokenVerifier> verifier, Instance<IdentityDirectory> directory,
            @ConfigProperty(name = "im.unknown-app-ttl") Duration unknownAppTtl) {
        this(verifier::get, directory::get, new ExpiringCache<>(unknownAppTtl, UNKNOWN_APPS_MAX));
    }

    TokenAuthenticator(Supplier<TokenVerifier> verifier, Supplier<IdentityDirectory> directory,
            ExpiringCache<String, Boolean> unknownApps) {
        this.verifier = verifier;
        this.directory = directory;
        this.unknownApps = unknownApps;
    }

    /** The app id if the app exists, else 40000. */
    public String knownApp(String appId) {
        if (appId == null || appId.isBlank()) {
            throw new ApiException(ErrorCode.APP_NOT_FOUND, "app_id header missing");
        }
        if (knownApps.contains(appId)) {
            return appId;
        }
        if (appId.length() > 64 || unknownApps.get(appId) != null) {
            throw new ApiException(ErrorCode.APP_NOT_FOUND, "app_id does not exist");
        }
        if (directory.get().adminTokenVersion(appId).isEmpty()) {
            unknownApps.put(appId, Boolean.TRUE);
            throw new ApiException(ErrorCode.APP_NOT_FOUND, "app_id does not exist");
        }
        if (knownApps.size() >= KNOWN_APPS_MAX) {
            knownApps.clear();
        }
        knownApps.add(appId);
        return appId;
    }

    /** The verified claims of a token of this (known) app that is neither revoked nor of a disabled user. */
    public TokenClaims authenticate(String appId, String raw) {
        if (raw == null || raw.isBlank()) {
            throw new ApiException(ErrorCode.TOKEN_MISSING);
        }
        TokenClaims token = verifier.get().verify(raw.trim());
        if (!token.appId().equals(appId)) {
            throw new ApiException(ErrorCode.TOKEN_INVALID, "access-token belongs to another app");
        }
        if (token.isAdmin()) {
            OptionalInt current = directory.get().adminTokenVersion(appId);
            if (current.isEmpty() || current.getAsInt() != token.tokenVersion()) {
                throw new ApiException(ErrorCode.TOKEN_INVALID, "admin token was revoked");
            }
        } else {
            IdentityDirectory.UserState state = directory.get().user(appId, token.userId())
                    .orElseThrow(() -> new ApiException(ErrorCode.TOKEN_INVALID, "access-token user does not exist"));
            if (state.tokenVersion() != token.tokenVersion()) {
                throw new ApiException(ErrorCode.TOKEN_INVALID, "access-token was revoked");
            }
            if (state.disabled()) {
                throw new ApiException(ErrorCode.USER_DISABLED);
            }
        }
        return token;
    }

    /** An admin acting as a user: the user must exist (10000) and be enabled (10014). */
    public void checkActingUser(String appId, long userId) {
        IdentityDirectory.UserState state = directory.get().user(appId, userId)
                .orElseThrow(() -> new ApiException(ErrorCode.USER_NOT_FOUND, "user_id: user does not exist"));
        if (state.disabled()) {
            throw new ApiException(ErrorCode.USER_DISABLED);
        }
    }
}
