package io.imcore.common.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Optional;

/**
 * Reads RSA private keys given inline (PEM or bare base64 DER) or as a file path: the token signing key, service
 * account keys.
 */
public final class Keys {

    private Keys() {}

    public static PrivateKey privateKey(Optional<String> inline, Optional<String> location) {
        byte[] der = der(resolve(inline, location, "private"));
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("not an RSA private key (PKCS#8 expected)", e);
        }
    }

    /** The base64 DER form of a public key, as handed to clients in the token response. */
    public static String base64(PublicKey key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    private static String resolve(Optional<String> inline, Optional<String> location, String kind) {
        if (inline.isPresent() && !inline.get().isBlank()) {
            return inline.get();
        }
        if (location.isPresent() && !location.get().isBlank()) {
            try {
                return Files.readString(Path.of(location.get()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the JWT " + kind + " key at " + location.get(), e);
            }
        }
        throw new IllegalStateException("no JWT " + kind + " key configured (im.jwt." + kind + "-key or im.jwt."
                + kind + "-key-location)");
    }

    private static byte[] der(String text) {
        String body = text.replaceAll("-----(BEGIN|END) [A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }
}
