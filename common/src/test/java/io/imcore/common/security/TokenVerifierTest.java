package io.imcore.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Optional;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

    private static final KeyPair KEYS = rsa();

    private static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TokenVerifier verifier() {
        String publicKey = Base64.getEncoder().encodeToString(KEYS.getPublic().getEncoded());
        return new TokenVerifier(new JwtConfig() {
            public Optional<String> publicKey() { return Optional.of(publicKey); }
            public Optional<String> publicKeyLocation() { return Optional.empty(); }
            public Optional<String> privateKey() { return Optional.empty(); }
            public Optional<String> privateKeyLocation() { return Optional.empty(); }
            public long userTokenTtlSeconds() { return 60; }
            public long adminTokenTtlSeconds() { return 60; }
            public int clockSkewSeconds() { return 0; }
        });
    }

    private static String token(long expiresAt) throws Exception {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(TokenClaims.ISSUER);
        claims.setExpirationTime(NumericDate.fromSeconds(expiresAt));
        claims.setSubject("42");
        claims.setClaim(TokenClaims.APP, "app1");
        claims.setClaim(TokenClaims.ROLE, "user");
        claims.setClaim(TokenClaims.TOKEN_VERSION, 3);
        claims.setClaim(TokenClaims.DEVICE_SN, 2);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(KEYS.getPrivate());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    @Test
    void readsTheClaimsOfAValidToken() throws Exception {
        TokenClaims claims = verifier().verify(token(NumericDate.now().getValue() + 60));
        assertEquals("app1", claims.appId());
        assertEquals(Role.USER, claims.role());
        assertEquals(42L, claims.userId());
        assertEquals(3, claims.tokenVersion());
        assertEquals(2, claims.deviceSn());
    }

    @Test
    void aTokenVerifiedOnceStillExpires() throws Exception {
        TokenVerifier verifier = verifier();
        // seconds of margin for the first check on a loaded machine; then wait until just past the expiry
        long expiresAt = NumericDate.now().getValue() + 4;
        String token = token(expiresAt);
        verifier.verify(token);
        Thread.sleep(Math.max(0, (expiresAt + 1) * 1000 - System.currentTimeMillis()));
        ApiException expired = assertThrows(ApiException.class, () -> verifier.verify(token));
        assertEquals(ErrorCode.TOKEN_INVALID, expired.errorCode());
    }
}
