package io.imcore.testing;

import io.imcore.common.security.TokenKeySet;
import java.security.KeyPair;
import java.security.PrivateKey;
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
        return claims(appId, Long.toString(userId), "user", tokenVersion);
    }

    /** Claims of an app's admin token, valid for an hour. */
    public static JwtClaims adminClaims(String appId) {
        return claims(appId, "admin", "admin", 1);
    }

    private static JwtClaims claims(String appId, String subject, String role, int tokenVersion) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer("imcore-auth");
        claims.setIssuedAtToNow();
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(3600);
        claims.setExpirationTime(expiry);
        claims.setSubject(subject);
        claims.setClaim("app", appId);
        claims.setClaim("role", role);
        claims.setClaim("tv", tokenVersion);
        return claims;
    }

    /** Signed by this key pair, with its thumbprint as {@code kid}: how auth-service signs with a key of the set. */
    public static String signRs256(JwtClaims claims, KeyPair keys) {
        return signRs256(claims, keys.getPrivate(), TokenKeySet.thumbprint(keys.getPublic()));
    }

    /** Signed by this key with this {@code kid} header (none when null). */
    public static String signRs256(JwtClaims claims, PrivateKey key, String kid) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        if (kid != null) {
            jws.setKeyIdHeaderValue(kid);
        }
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** HS256 with the public key's bytes as the HMAC secret: the algorithm-confusion attack on RSA verifiers. */
    public static String hmacWithPublicKey(JwtClaims claims, KeyPair keys) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(new javax.crypto.spec.SecretKeySpec(keys.getPublic().getEncoded(), "HmacSHA256"));
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
        jws.setKeyIdHeaderValue(TokenKeySet.thumbprint(keys.getPublic()));
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
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
}
