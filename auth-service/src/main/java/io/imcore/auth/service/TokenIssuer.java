package io.imcore.auth.service;

import io.imcore.common.security.JwtConfig;
import io.imcore.common.security.Keys;
import io.imcore.common.security.Role;
import io.imcore.common.security.TokenClaims;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.PrivateKey;
import java.util.UUID;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/** Signs access tokens with the private key that only auth-service holds (RS256). */
@ApplicationScoped
public class TokenIssuer {

    private final PrivateKey privateKey;
    private final JwtConfig config;

    public TokenIssuer(JwtConfig config) {
        this.config = config;
        this.privateKey = Keys.privateKey(config.privateKey(), config.privateKeyLocation());
    }

    public record Issued(String token, long expire) {}

    public Issued userToken(String appId, long userId, int tokenVersion, Integer deviceSn) {
        JwtClaims claims = base(appId, Role.USER, tokenVersion, config.userTokenTtlSeconds());
        claims.setSubject(Long.toString(userId));
        if (deviceSn != null) {
            claims.setClaim(TokenClaims.DEVICE_SN, deviceSn);
        }
        return sign(claims);
    }

    public Issued adminToken(String appId, int adminTokenVersion) {
        JwtClaims claims = base(appId, Role.ADMIN, adminTokenVersion, config.adminTokenTtlSeconds());
        claims.setSubject("admin");
        return sign(claims);
    }

    private static JwtClaims base(String appId, Role role, int version, long ttlSeconds) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(TokenClaims.ISSUER);
        claims.setIssuedAtToNow();
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(ttlSeconds);
        claims.setExpirationTime(expiry);
        claims.setJwtId(UUID.randomUUID().toString());
        claims.setClaim(TokenClaims.APP, appId);
        claims.setClaim(TokenClaims.ROLE, role.claim());
        claims.setClaim(TokenClaims.TOKEN_VERSION, version);
        return claims;
    }

    private Issued sign(JwtClaims claims) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(privateKey);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return new Issued(jws.getCompactSerialization(), claims.getExpirationTime().getValue());
        } catch (JoseException | org.jose4j.jwt.MalformedClaimException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
    }
}
