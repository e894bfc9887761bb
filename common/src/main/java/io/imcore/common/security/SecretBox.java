package io.imcore.common.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets at rest with AES-256-GCM. A sealed value is {@code version byte | 12-byte random nonce |
 * ciphertext and 16-byte tag}. The caller passes a context (the associated data) naming where the value lives, e.g.
 * its row and column: a sealed value copied anywhere else does not open. Thread-safe.
 */
public final class SecretBox {

    private static final byte VERSION = 1;
    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param keyName    the setting the key comes from, named in the startup error
     * @param base64Key  base64 of 32 random bytes
     * @throws IllegalStateException when the key is missing, not base64 or not 32 bytes long
     */
    public SecretBox(String keyName, String base64Key) {
        String expected = " (base64 of " + KEY_BYTES + " random bytes, e.g. openssl rand -base64 32)";
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalStateException(keyName + " is not set: an AES-256 key is required" + expected);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64Key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(keyName + " is not valid base64" + expected);
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalStateException(keyName + " decodes to " + bytes.length + " bytes, not " + KEY_BYTES
                    + expected);
        }
        this.key = new SecretKeySpec(bytes, "AES");
    }

    public byte[] seal(String plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, context);
            byte[] ciphertext = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(1 + NONCE_BYTES + ciphertext.length)
                    .put(VERSION).put(nonce).put(ciphertext).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /**
     * @throws IllegalArgumentException when the value was sealed with another key or context, or was altered
     */
    public String open(byte[] sealed, String context) {
        if (sealed == null || sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8 || sealed[0] != VERSION) {
            throw new IllegalArgumentException("not a sealed value of version " + VERSION);
        }
        byte[] nonce = Arrays.copyOfRange(sealed, 1, 1 + NONCE_BYTES);
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, nonce, context);
            byte[] plaintext = cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES);
            return new String(plaintext, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("sealed value does not open: other key or context, or altered");
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String context) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(TRANSFORMATION);
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        // the version byte is authenticated too, so a future format cannot be confused with this one
        cipher.updateAAD(new byte[] {VERSION});
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
