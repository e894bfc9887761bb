package io.imcore.common.security;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * How auth-service issues tokens. Verification is configured with smallrye-jwt's standard {@code mp.jwt.verify.*}
 * properties (the key set: {@code mp.jwt.verify.publickey.location}), see {@link TokenVerifier}.
 */
@ConfigMapping(prefix = "im.jwt")
public interface JwtConfig {

    /**
     * File holding the RSA private key (PKCS#8 PEM) that signs new tokens; only auth-service sets it. Its public key
     * must be in the verification key set, whose entry gives the tokens' {@code kid}. Re-read like the key set:
     * replacing the file switches signing to another key of the set.
     */
    Optional<String> privateKeyLocation();

    /**
     * How often every service re-reads the key set file, and auth-service its signing key file (default in
     * common's META-INF/microprofile-config.properties).
     */
    Duration keyReloadInterval();

    /** Lifetime of user tokens in seconds. */
    @WithDefault("604800")
    long userTokenTtlSeconds();

    /** Lifetime of admin tokens in seconds (they are revoked by rotation, so they live long). */
    @WithDefault("31536000")
    long adminTokenTtlSeconds();
}
