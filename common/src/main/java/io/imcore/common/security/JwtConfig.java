package io.imcore.common.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Where the token-verification key comes from (every service) and how tokens are issued (auth-service). */
@ConfigMapping(prefix = "im.jwt")
public interface JwtConfig {

    /** RSA public key, PEM or base64 DER; wins over {@link #publicKeyLocation()}. */
    Optional<String> publicKey();

    /** File holding the RSA public key (PEM). */
    Optional<String> publicKeyLocation();

    /** RSA private key (PKCS#8 PEM or base64); only auth-service sets it. */
    Optional<String> privateKey();

    /** File holding the RSA private key (PKCS#8 PEM); only auth-service sets it. */
    Optional<String> privateKeyLocation();

    /** Lifetime of user tokens in seconds. */
    @WithDefault("604800")
    long userTokenTtlSeconds();

    /** Lifetime of admin tokens in seconds (they are revoked by rotation, so they live long). */
    @WithDefault("31536000")
    long adminTokenTtlSeconds();

    /** Tolerated clock difference between services when checking expiry. */
    @WithDefault("30")
    int clockSkewSeconds();
}
