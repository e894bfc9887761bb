package io.imcore.testing;

import io.imcore.common.security.TokenKeySet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;
import java.util.Base64;

/**
 * Writes the key files a service reads: the verification key set (JWKS) and auth-service's signing key (PKCS#8
 * PEM), the way deploy/jwt/jwt-keys.sh does. Each write replaces the file in one move, as a Kubernetes Secret
 * update does, so a service re-reading it never sees half a file.
 */
public final class TokenKeyFiles {

    private TokenKeyFiles() {}

    /** A JWKS of these key pairs' public keys, each named by its thumbprint. */
    public static void writeKeySet(Path file, KeyPair... keys) {
        replace(file, TokenKeySet.of(Arrays.stream(keys).map(k -> (RSAPublicKey) k.getPublic()).toList()).toJson());
    }

    public static void writePrivateKey(Path file, PrivateKey key) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded());
        replace(file, "-----BEGIN PRIVATE KEY-----\n" + base64 + "\n-----END PRIVATE KEY-----\n");
    }

    private static void replace(Path file, String content) {
        try {
            Path next = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".next");
            Files.writeString(next, content);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
