package io.imcore.testing;

import java.security.Key;
import java.util.Map;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

/** Hand-made tokens for the attacks a service must refuse: foreign keys, {@code alg: none}, expired, tampered. */
public final class TestTokens {

    private TestTokens() {}

    /** Claims of a user token of the service's format, valid for an hour unless changed. */
    public static JwtClaims userClaims(String appId, long userId, int tokenVersion) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer("imcore-auth");
        claims.setIssuedAtToNow();
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(3600);
        claims.setExpirationTime(expiry);
        claims.setSubject(Long.toString(userId));
        claims.setClaim("app", appId);
        claims.setClaim("role", "user");
        claims.setClaim("tv", tokenVersion);
        return claims;
    }

    /** Claims of an app's admin token, valid for an hour. */
    public static JwtClaims adminClaims(String appId) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer("imcore-auth");
        claims.setIssuedAtToNow();
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(3600);
        claims.setExpirationTime(expiry);
        claims.setSubject("admin");
        claims.setClaim("app", appId);
        claims.setClaim("role", "admin");
        claims.setClaim("tv", 1);
        return claims;
    }

    public static String signRs256(JwtClaims claims, Key privateKey) {
        return sign(claims, privateKey, AlgorithmIdentifiers.RSA_USING_SHA256);
    }

    /** An unsigned token ({@code alg: none}). */
    public static String unsigned(JwtClaims claims) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.NONE);
        jws.setAlgorithmConstraints(org.jose4j.jwa.AlgorithmConstraints.NO_CONSTRAINTS);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same token with its payload replaced (signature kept): what a tamperer would send. */
    public static String withPayload(String token, Map<String, Object> claims) {
        String[] parts = token.split("\\.");
        JwtClaims replaced = new JwtClaims();
        claims.forEach(replaced::setClaim);
        String payload = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(replaced.toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return parts[0] + "." + payload + "." + parts[2];
    }

    private static String sign(JwtClaims claims, Key key, String algorithm) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(algorithm);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }
}
