package io.imcore.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.smallrye.jwt.KeyFormat;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import javax.crypto.spec.SecretKeySpec;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenVerifierTest {

    private static final KeyPair OLD = TokenKeySetTest.rsa(2048);
    private static final KeyPair NEW = TokenKeySetTest.rsa(2048);
    private static final KeyPair STRANGER = TokenKeySetTest.rsa(2048);

    @TempDir
    Path directory;

    /** The rules of common's META-INF/microprofile-config.properties, with no clock skew (the expiry tests). */
    private static JWTAuthContextInfo settings() {
        JWTAuthContextInfo settings = new JWTAuthContextInfo();
        settings.setIssuedBy(TokenClaims.ISSUER);
        settings.setSignatureAlgorithm(Set.of(SignatureAlgorithm.RS256));
        settings.setKeyFormat(KeyFormat.JWK);
        settings.setRelaxVerificationKeyValidation(false);
        settings.setClockSkew(0);
        return settings;
    }

    private Path keySet(KeyPair... keys) throws Exception {
        Path file = directory.resolve("jwks.json");
        Files.writeString(file, TokenKeySet.of(Arrays.stream(keys).map(k -> (RSAPublicKey) k.getPublic()).toList())
                .toJson());
        return file;
    }

    private static TokenVerifier verifier(Path keySet) {
        return new TokenVerifier(settings(), Optional.of(keySet.toString()));
    }

    private static JwtClaims claims(long expiresAt) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(TokenClaims.ISSUER);
        claims.setIssuedAtToNow();
        claims.setExpirationTime(NumericDate.fromSeconds(expiresAt));
        claims.setSubject("42");
        claims.setClaim(TokenClaims.APP, "app1");
        claims.setClaim(TokenClaims.ROLE, "user");
        claims.setClaim(TokenClaims.TOKEN_VERSION, 3);
        claims.setClaim(TokenClaims.DEVICE_SN, 2);
        return claims;
    }

    private static JwtClaims live() {
        return claims(NumericDate.now().getValue() + 60);
    }

    private static String sign(JwtClaims claims, KeyPair keys) throws Exception {
        return sign(claims, keys.getPrivate(), TokenKeySet.thumbprint(keys.getPublic()));
    }

    private static String sign(JwtClaims claims, PrivateKey key, String kid) throws Exception {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        if (kid != null) {
            jws.setKeyIdHeaderValue(kid);
        }
        return jws.getCompactSerialization();
    }

    private static void refused(TokenVerifier verifier, String token, String message) {
        ApiException refused = assertThrows(ApiException.class, () -> verifier.verify(token));
        assertEquals(ErrorCode.TOKEN_INVALID, refused.errorCode());
        assertEquals(message, refused.getMessage());
    }

    @Test
    void readsTheClaimsOfAValidToken() throws Exception {
        TokenClaims claims = verifier(keySet(OLD)).verify(sign(live(), OLD));
        assertEquals("app1", claims.appId());
        assertEquals(Role.USER, claims.role());
        assertEquals(42L, claims.userId());
        assertEquals(3, claims.tokenVersion());
        assertEquals(2, claims.deviceSn());
    }

    @Test
    void everyKeyOfTheSetVerifiesTheTokensItSigned() throws Exception {
        TokenVerifier verifier = verifier(keySet(OLD, NEW));
        assertEquals(42L, verifier.verify(sign(live(), OLD)).userId());
        assertEquals(42L, verifier.verify(sign(live(), NEW)).userId());
    }

    @Test
    void anUnknownKidIsRefusedAndAKnownKidWithAnotherKeysSignatureToo() throws Exception {
        TokenVerifier verifier = verifier(keySet(OLD, NEW));
        refused(verifier, sign(live(), STRANGER), "access-token signed with an unknown or retired key");
        refused(verifier, sign(live(), STRANGER.getPrivate(), TokenKeySet.thumbprint(OLD.getPublic())),
                "access-token invalid");
    }

    @Test
    void tokensFromBeforeKidsPassAOneKeySetOnly() throws Exception {
        // issued before tokens carried kid: the only key of a one-key set verifies them (an upgrade logs nobody out)
        String withoutKid = sign(live(), OLD.getPrivate(), null);
        assertEquals(42L, verifier(keySet(OLD)).verify(withoutKid).userId());
        refused(verifier(keySet(OLD, NEW)), withoutKid, "access-token signed with an unknown or retired key");
    }

    @Test
    void aRetiredKeysTokensAreRefusedAfterTheReloadEvenWhenVerifiedBefore() throws Exception {
        Path file = keySet(OLD, NEW);
        TokenVerifier verifier = verifier(file);
        String old = sign(live(), OLD);
        verifier.verify(old);
        keySet(NEW);
        verifier.verify(old); // not re-read yet: still valid
        verifier.reload();
        refused(verifier, old, "access-token signed with an unknown or retired key");
        assertEquals(42L, verifier.verify(sign(live(), NEW)).userId());
    }

    @Test
    void aKeySetFileThatDoesNotParseLeavesTheSetInForce() throws Exception {
        Path file = keySet(OLD);
        TokenVerifier verifier = verifier(file);
        String token = sign(live(), OLD);
        Files.writeString(file, "{\"keys\":[");
        verifier.reload();
        assertEquals(42L, verifier.verify(token).userId());
        assertEquals(Set.of(TokenKeySet.thumbprint(OLD.getPublic())), Set.copyOf(verifier.keySet().orElseThrow().kids()));
    }

    @Test
    void forgedAlgorithmsAreRefused() throws Exception {
        TokenVerifier verifier = verifier(keySet(OLD));
        JsonWebSignature none = new JsonWebSignature();
        none.setPayload(live().toJson());
        none.setAlgorithmHeaderValue(AlgorithmIdentifiers.NONE);
        none.setAlgorithmConstraints(AlgorithmConstraints.NO_CONSTRAINTS);
        refused(verifier, none.getCompactSerialization(), "access-token invalid");
        JsonWebSignature hmac = new JsonWebSignature();
        hmac.setPayload(live().toJson());
        hmac.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
        hmac.setKey(new SecretKeySpec(OLD.getPublic().getEncoded(), "HmacSHA256"));
        hmac.setKeyIdHeaderValue(TokenKeySet.thumbprint(OLD.getPublic()));
        refused(verifier, hmac.getCompactSerialization(), "access-token invalid");
    }

    @Test
    void aTokenWithoutOurClaimsIsRefused() throws Exception {
        JwtClaims claims = live();
        claims.unsetClaim(TokenClaims.TOKEN_VERSION);
        refused(verifier(keySet(OLD)), sign(claims, OLD), "access-token invalid");
        JwtClaims otherIssuer = live();
        otherIssuer.setIssuer("someone-else");
        refused(verifier(keySet(OLD)), sign(otherIssuer, OLD), "access-token invalid");
    }

    @Test
    void anExpiredTokenSaysSo() throws Exception {
        refused(verifier(keySet(OLD)), sign(claims(NumericDate.now().getValue() - 10), OLD), "access-token expired");
    }

    @Test
    void aTokenVerifiedOnceStillExpires() throws Exception {
        TokenVerifier verifier = verifier(keySet(OLD));
        // seconds of margin for the first check on a loaded machine; then wait until just past the expiry
        long expiresAt = NumericDate.now().getValue() + 4;
        String token = sign(claims(expiresAt), OLD);
        verifier.verify(token);
        Thread.sleep(Math.max(0, (expiresAt + 1) * 1000 - System.currentTimeMillis()));
        refused(verifier, token, "access-token expired");
    }

    @Test
    void noKeySetLocationStopsTheStart() {
        assertThrows(IllegalStateException.class, () -> new TokenVerifier(settings(), Optional.of(" ")));
        assertThrows(IllegalStateException.class, () -> new TokenVerifier(settings(), Optional.empty()));
    }
}
