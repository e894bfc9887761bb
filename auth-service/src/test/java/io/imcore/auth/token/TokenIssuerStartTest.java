package io.imcore.auth.token;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.security.JwtConfig;
import io.imcore.common.security.TokenVerifier;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TokenKeyFiles;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** auth-service refuses to start with a signing key the verification key set does not hold: its tokens would be dead. */
class TokenIssuerStartTest {

    @TempDir
    Path directory;

    private static JwtConfig signingKeyAt(Path file) {
        return new JwtConfig() {
            public Optional<String> privateKeyLocation() { return Optional.of(file.toString()); }
            public Duration keyReloadInterval() { return Duration.ofSeconds(30); }
            public long userTokenTtlSeconds() { return 60; }
            public long adminTokenTtlSeconds() { return 60; }
        };
    }

    @Test
    void aSigningKeyOutsideTheSetStopsTheStart() {
        KeyPair inSet = SharedInfrastructure.newRsaKeyPair();
        KeyPair signing = SharedInfrastructure.newRsaKeyPair();
        Path keySet = directory.resolve("jwks.json");
        Path privateKey = directory.resolve("private.pem");
        TokenKeyFiles.writeKeySet(keySet, inSet);
        TokenKeyFiles.writePrivateKey(privateKey, signing.getPrivate());
        TokenVerifier verifier = new TokenVerifier(new JWTAuthContextInfo(), Optional.of(keySet.toString()));

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new TokenIssuer(signingKeyAt(privateKey), verifier));
        assertTrue(refused.getMessage().contains("is not in the verification key set"), refused.getMessage());

        TokenKeyFiles.writeKeySet(keySet, inSet, signing);
        new TokenIssuer(signingKeyAt(privateKey), new TokenVerifier(new JWTAuthContextInfo(),
                Optional.of(keySet.toString())));
    }
}
