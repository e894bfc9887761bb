package io.imcore.common.security;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;

/**
 * Checks signature (RS256 only: {@code none} and HMAC tricks are refused), issuer and expiry of an access token.
 * Revocation and the app match are checked by the request filter, which knows the current state.
 */
@ApplicationScoped
public class TokenVerifier {

    /** Tokens are reused for many calls: a verified token skips the signature check and JSON parse next time. */
    private static final int VERIFIED_CACHE_MAX = 10_000;

    private final JwtConsumer consumer;
    private final PublicKey publicKey;
    private final int clockSkewSeconds;
    private final Map<String, TokenClaims> verified = new ConcurrentHashMap<>();

    public TokenVerifier(JwtConfig config) {
        this.publicKey = Keys.publicKey(config.publicKey(), config.publicKeyLocation());
        this.clockSkewSeconds = config.clockSkewSeconds();
        this.consumer = new JwtConsumerBuilder()
                .setVerificationKey(publicKey)
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, AlgorithmIdentifiers.RSA_USING_SHA256)
                .setRequireExpirationTime()
                .setAllowedClockSkewInSeconds(config.clockSkewSeconds())
                .setExpectedIssuer(TokenClaims.ISSUER)
                .setSkipDefaultAudienceValidation()
                .build();
    }

    public PublicKey publicKey() {
        return publicKey;
    }

    public TokenClaims verify(String token) {
        TokenClaims known = verified.get(token);
        if (known != null) {
            // the same rule as the JWT library: expired from the second of exp on, less the allowed skew
            if (System.currentTimeMillis() / 1000 - clockSkewSeconds >= known.expiresAt()) {
                verified.remove(token);
                throw invalid();
            }
            return known;
        }
        TokenClaims claims = parse(token);
        if (verified.size() >= VERIFIED_CACHE_MAX) {
            verified.clear();
        }
        verified.put(token, claims);
        return claims;
    }

    private TokenClaims parse(String token) {
        try {
            JwtClaims claims = consumer.processToClaims(token);
            Role role = Role.fromClaim(claims.getStringClaimValue(TokenClaims.ROLE));
            String app = claims.getStringClaimValue(TokenClaims.APP);
            Number version = claims.getClaimValue(TokenClaims.TOKEN_VERSION, Number.class);
            if (role == null || app == null || version == null) {
                throw invalid();
            }
            Long userId = null;
            if (role == Role.USER) {
                userId = Long.parseLong(claims.getSubject());
            }
            Number deviceSn = claims.getClaimValue(TokenClaims.DEVICE_SN, Number.class);
            return new TokenClaims(app, role, userId, version.intValue(),
                    deviceSn == null ? null : deviceSn.intValue(), claims.getExpirationTime().getValue());
        } catch (InvalidJwtException | MalformedClaimException | NumberFormatException | NullPointerException e) {
            throw invalid();
        }
    }

    private static ApiException invalid() {
        return new ApiException(ErrorCode.TOKEN_INVALID);
    }
}
