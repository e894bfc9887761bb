package io.imcore.common.security;

import io.smallrye.jwt.util.KeyUtils;
import java.security.PublicKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.Use;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.lang.HashUtil;
import org.jose4j.lang.JoseException;

/**
 * The token-verification key set: a JWK Set (RFC 7517 section 5) of RSA public keys, each named by its {@code kid}.
 * Every service verifies against every key of the set (the signing key and, during a rotation, the previous or the
 * next one); a token's {@code kid} header picks the key. Our tools name a key by its RFC 7638 thumbprint.
 */
public final class TokenKeySet {

    private final Map<String, RSAPublicKey> keys;

    private TokenKeySet(Map<String, RSAPublicKey> keys) {
        this.keys = keys;
    }

    /**
     * Reads a JWK Set with smallrye-jwt's own loader (what it accepts is what verification sees) and checks what it
     * does not: at least one key, every key RSA with a unique {@code kid}, and no private key material.
     */
    public static TokenKeySet parse(String jwks) {
        List<JsonWebKey> parsed = KeyUtils.loadJsonWebKeys(jwks);
        if (parsed == null || parsed.isEmpty()) {
            throw new IllegalArgumentException("not a JWK set with at least one key");
        }
        Map<String, RSAPublicKey> keys = new LinkedHashMap<>();
        for (JsonWebKey jwk : parsed) {
            if (!(jwk instanceof RsaJsonWebKey rsa)) {
                throw new IllegalArgumentException("key " + jwk.getKeyId() + " is not an RSA key");
            }
            if (rsa.getPrivateKey() != null) {
                throw new IllegalArgumentException("key " + jwk.getKeyId() + " holds private key material: the set "
                        + "is public, only auth-service's signing key file holds a private key");
            }
            String kid = jwk.getKeyId();
            if (kid == null || kid.isBlank()) {
                throw new IllegalArgumentException("a key has no kid");
            }
            if (keys.put(kid, rsa.getRsaPublicKey()) != null) {
                throw new IllegalArgumentException("kid " + kid + " appears twice");
            }
        }
        return new TokenKeySet(Collections.unmodifiableMap(keys));
    }

    /** A set of these keys, each named by its thumbprint (what deploy/jwt/jwt-keys.sh writes). */
    public static TokenKeySet of(Collection<RSAPublicKey> publicKeys) {
        Map<String, RSAPublicKey> keys = new LinkedHashMap<>();
        for (RSAPublicKey key : publicKeys) {
            keys.put(thumbprint(key), key);
        }
        return new TokenKeySet(Collections.unmodifiableMap(keys));
    }

    /** The RFC 7638 JWK thumbprint (SHA-256, base64url) of a public key: the kid our tools give it. */
    public static String thumbprint(PublicKey key) {
        try {
            return PublicJsonWebKey.Factory.newPublicJwk(key).calculateBase64urlEncodedThumbprint(HashUtil.SHA_256);
        } catch (JoseException e) {
            throw new IllegalArgumentException("not a key a JWK can hold", e);
        }
    }

    public Collection<String> kids() {
        return keys.keySet();
    }

    /** The kid under which the set holds this public key, if it does. */
    public Optional<String> kidOf(RSAPublicKey key) {
        return keys.entrySet().stream()
                .filter(entry -> entry.getValue().getModulus().equals(key.getModulus())
                        && entry.getValue().getPublicExponent().equals(key.getPublicExponent()))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** The set as JWKS JSON with public members only ({@code kty, kid, use, alg, n, e}). */
    public String toJson() {
        JsonWebKeySet set = new JsonWebKeySet();
        keys.forEach((kid, key) -> {
            RsaJsonWebKey jwk = new RsaJsonWebKey(key);
            jwk.setKeyId(kid);
            jwk.setUse(Use.SIGNATURE);
            jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
            set.addJsonWebKey(jwk);
        });
        return set.toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
    }

    @Override
    public String toString() {
        return "kids " + keys.keySet();
    }
}
