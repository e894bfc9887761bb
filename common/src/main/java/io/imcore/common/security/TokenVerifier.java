package io.imcore.common.security;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonNumber;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwx.JsonWebStructure;
import org.jose4j.lang.JoseException;
import org.jose4j.lang.UnresolvableKeyException;

/**
 * Verifies access tokens with smallrye-jwt's parser, configured by the standard {@code mp.jwt.verify.*} properties
 * (common's META-INF/microprofile-config.properties): RS256 only ({@code none} and HMAC tricks are refused),
 * issuer, expiry with clock skew, and a key of the key set chosen by the token's {@code kid}. The key set is a JWKS
 * file ({@code mp.jwt.verify.publickey.location}) re-read every {@code im.jwt.key-reload-interval}, so keys are
 * added and retired without a restart; a JWKS URL is left to smallrye-jwt's own refresh. Revocation and the app
 * match are checked by {@code TokenAuthenticator}, which knows the current state.
 */
@Startup
@ApplicationScoped
public class TokenVerifier {

    private static final Logger LOG = Logger.getLogger(TokenVerifier.class);
    /** Tokens are reused for many calls: a verified token skips the signature check and JSON parse next time. */
    private static final int VERIFIED_CACHE_MAX = 10_000;

    private final JWTAuthContextInfo settings;
    /** Absent when the set comes from a URL. */
    private final Optional<KeyFile> keySetFile;
    private volatile KeySetVerifier current;

    public TokenVerifier(JWTAuthContextInfo settings,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location) {
        this.settings = settings;
        String where = location.map(String::trim).filter(l -> !l.isEmpty()).orElseThrow(() -> new IllegalStateException(
                "no token verification key set: set mp.jwt.verify.publickey.location to the JWKS file"));
        if (where.startsWith("http:") || where.startsWith("https:")) {
            keySetFile = Optional.empty();
            current = new KeySetVerifier(Optional.empty(), new DefaultJWTParser(settings));
        } else {
            KeyFile file = new KeyFile(where);
            keySetFile = Optional.of(file);
            current = load(file.content());
        }
        LOG.infof("token verification keys from %s: %s", where, current.keys().map(Object::toString).orElse("(URL)"));
    }

    /** The key set in force; empty when it comes from a URL (smallrye-jwt then holds it). */
    public Optional<TokenKeySet> keySet() {
        return current.keys();
    }

    public TokenClaims verify(String token) {
        KeySetVerifier verifier = current;
        TokenClaims known = verifier.verified().get(token);
        if (known != null) {
            // the same rule as the JWT library: expired from the second of exp on, less the allowed skew
            if (System.currentTimeMillis() / 1000 - settings.getClockSkew() >= known.expiresAt()) {
                verifier.verified().remove(token);
                throw new ApiException(ErrorCode.TOKEN_INVALID, "access-token expired");
            }
            return known;
        }
        // a first check costs a signature's verification, and a key set from a URL may be fetched
        NonBlockingAttempt.refuseBlocking();
        TokenClaims claims;
        try {
            claims = claims(verifier.parser().parse(token));
        } catch (ParseException e) {
            throw refusal(token, e);
        }
        if (verifier.verified().size() >= VERIFIED_CACHE_MAX) {
            verifier.verified().clear();
        }
        verifier.verified().put(token, claims);
        return claims;
    }

    /**
     * Takes a changed key set file. A set that does not parse is refused and the one in force kept: a bad edit of
     * the Secret must not log everybody out. The cache goes with the old set, so a retired key's tokens are
     * refused from the next call on.
     */
    @Scheduled(every = "${im.jwt.key-reload-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public void reload() {
        if (keySetFile.isEmpty()) {
            return;
        }
        KeyFile file = keySetFile.get();
        try {
            Optional<KeySetVerifier> loaded = file.ifChanged(this::load);
            if (loaded.isPresent()) {
                current = loaded.get();
                LOG.infof("token verification keys reloaded from %s: %s", file.location(),
                        loaded.get().keys().orElseThrow());
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.errorf("token verification keys at %s not reloaded, still using %s: %s", file.location(),
                    current.keys().orElseThrow(), e.getMessage());
        }
    }

    private KeySetVerifier load(String jwks) {
        TokenKeySet keys = TokenKeySet.parse(jwks);
        JWTAuthContextInfo withKeys = new JWTAuthContextInfo(settings);
        withKeys.setPublicKeyContent(jwks);
        return new KeySetVerifier(Optional.of(keys), new DefaultJWTParser(withKeys));
    }

    private static TokenClaims claims(JsonWebToken jwt) {
        Role role = Role.fromClaim(text(jwt.getClaim(TokenClaims.ROLE)));
        String app = text(jwt.getClaim(TokenClaims.APP));
        Number version = number(jwt.getClaim(TokenClaims.TOKEN_VERSION));
        if (role == null || app == null || version == null) {
            throw new ApiException(ErrorCode.TOKEN_INVALID, "access-token invalid");
        }
        Long userId = null;
        if (role == Role.USER) {
            try {
                userId = Long.parseLong(jwt.getSubject());
            } catch (NumberFormatException e) {
                throw new ApiException(ErrorCode.TOKEN_INVALID, "access-token invalid");
            }
        }
        Number deviceSn = number(jwt.getClaim(TokenClaims.DEVICE_SN));
        return new TokenClaims(app, role, userId, version.intValue(), deviceSn == null ? null : deviceSn.intValue(),
                jwt.getExpirationTime());
    }

    /** smallrye-jwt hands custom claims over as JSON-P values (numbers) or strings. */
    private static Number number(Object claim) {
        return claim instanceof JsonNumber json ? json.numberValue() : null;
    }

    private static String text(Object claim) {
        return claim instanceof String value ? value : null;
    }

    /** The failure's cause, as smallrye-jwt reports it, tells the caller what to do: log in again, or nothing. */
    private static ApiException refusal(String token, ParseException e) {
        // smallrye-jwt looks for a key of the token's algorithm first: alg none or HS256 also find no key
        if (e.getCause() instanceof UnresolvableKeyException && signedWithRs256(token)) {
            return new ApiException(ErrorCode.TOKEN_INVALID, "access-token signed with an unknown or retired key");
        }
        if (e.getCause() instanceof InvalidJwtException invalid && invalid.hasExpired()) {
            return new ApiException(ErrorCode.TOKEN_INVALID, "access-token expired");
        }
        return new ApiException(ErrorCode.TOKEN_INVALID, "access-token invalid");
    }

    private static boolean signedWithRs256(String token) {
        try {
            return AlgorithmIdentifiers.RSA_USING_SHA256.equals(
                    JsonWebStructure.fromCompactSerialization(token).getAlgorithmHeaderValue());
        } catch (JoseException e) {
            return false;
        }
    }

    /** A key set with its parser and the tokens verified against it (they go when the set changes). */
    private record KeySetVerifier(Optional<TokenKeySet> keys, JWTParser parser, Map<String, TokenClaims> verified) {
        KeySetVerifier(Optional<TokenKeySet> keys, JWTParser parser) {
            this(keys, parser, new ConcurrentHashMap<>());
        }
    }
}
