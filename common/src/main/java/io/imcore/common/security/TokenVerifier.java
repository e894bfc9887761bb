package io.imcore.common.security;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PublicKey;
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

    private final JwtConsumer consumer;
    private final PublicKey publicKey;

    public TokenVerifier(JwtConfig config) {
        this.publicKey = Keys.publicKey(config.publicKey(), config.publicKeyLocation());
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
