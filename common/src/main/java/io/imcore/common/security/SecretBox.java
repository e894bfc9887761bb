package io.imcore.common.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets at rest with AES-256-GCM under a set of numbered keys. A sealed value is {@code key version byte |
 * 12-byte random nonce | ciphertext and 16-byte tag}: new values are sealed with the current key, and a value opens
 * with whichever configured key its first byte names, so keys can be rotated without making stored values
 * unreadable. The caller passes a context (the associated data) naming where the value lives, e.g. its row and
 * column: a sealed value copied anywhere else does not open. Thread-safe.
 */
public final class SecretBox {

    /** Key versions fit the first byte; 0 is never used, so a zeroed value is never mistaken for a sealed one. */
    public static final int MIN_VERSION = 1;
    public static final int MAX_VERSION = 255;
    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";

    private final Map<Integer, SecretKey> keys;
    private final int currentVersion;
    private final SecureRandom random = new SecureRandom();

    /**
     * One key, version 1.
     *
     * @param keyName    the setting the key comes from, named in the startup error
     * @param base64Key  base64 of 32 random bytes
     * @throws IllegalStateException when the key is missing, not base64 or not 32 bytes long
     */
    public SecretBox(String keyName, String base64Key) {
        this(Collections.singletonMap(MIN_VERSION, base64Key), MIN_VERSION, version -> keyName);
    }

    /**
     * Several keys by version; values are sealed with {@code currentVersion}.
     *
     * @param base64Keys  base64 of 32 random bytes per version (1..255)
     * @param settingName names the setting a version's key comes from, in startup errors
     * @throws IllegalStateException when there is no key, a version is out of range, a key is not a valid AES-256
     *                               key, or the current version has no key
     */
    public SecretBox(Map<Integer, String> base64Keys, int currentVersion,
            IntFunction<String> settingName) {
        if (base64Keys.isEmpty()) {
            throw new IllegalStateException(settingName.apply(currentVersion)
                    + " is not set: an AES-256 key is required" + expectedKey());
        }
        Map<Integer, SecretKey> parsed = new TreeMap<>();
        base64Keys.forEach((version, base64Key) -> {
            if (version < MIN_VERSION || version > MAX_VERSION) {
                throw new IllegalStateException(settingName.apply(version) + ": key version " + version
                        + " is not between " + MIN_VERSION + " and " + MAX_VERSION);
            }
            parsed.put(version, aesKey(settingName.apply(version), base64Key));
        });
        if (!parsed.containsKey(currentVersion)) {
            throw new IllegalStateException("the current key version " + currentVersion + " has no key (configured: "
                    + parsed.keySet() + ")");
        }
        this.keys = Collections.unmodifiableMap(parsed);
        this.currentVersion = currentVersion;
    }

    private static SecretKey aesKey(String keyName, String base64Key) {
        if (base64Key == null || base64Key.isBlank()) {
            throw new IllegalStateException(keyName + " is not set: an AES-256 key is required" + expectedKey());
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64Key.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(keyName + " is not valid base64" + expectedKey());
        }
        if (bytes.length != KEY_BYTES) {
            throw new IllegalStateException(keyName + " decodes to " + bytes.length + " bytes, not " + KEY_BYTES
                    + expectedKey());
        }
        return new SecretKeySpec(bytes, "AES");
    }

    private static String expectedKey() {
        return " (base64 of " + KEY_BYTES + " random bytes, e.g. openssl rand -base64 32)";
    }

    /** The version new values are sealed with. */
    public int currentVersion() {
        return currentVersion;
    }

    /** The key version a sealed value names (its first byte), or -1 for an empty value. */
    public static int versionOf(byte[] sealed) {
        return sealed == null || sealed.length == 0 ? -1 : Byte.toUnsignedInt(sealed[0]);
    }

    /** Whether the value is sealed with the current key (a value on an older key still opens while that key is set). */
    public boolean isCurrent(byte[] sealed) {
        return versionOf(sealed) == currentVersion;
    }

    public byte[] seal(String plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, currentVersion, nonce, context);
            byte[] ciphertext = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(1 + NONCE_BYTES + ciphertext.length)
                    .put((byte) currentVersion).put(nonce).put(ciphertext).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /**
     * @throws IllegalArgumentException when the value names a key version that is not configured, was sealed with
     *                                  another key or context, or was altered
     */
    public String open(byte[] sealed, String context) {
        if (sealed == null || sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalArgumentException("not a sealed value: too short");
        }
        int version = versionOf(sealed);
        if (!keys.containsKey(version)) {
            throw new IllegalArgumentException("sealed with key version " + version + ", which is not configured"
                    + " (configured: " + keys.keySet() + ")");
        }
        byte[] nonce = Arrays.copyOfRange(sealed, 1, 1 + NONCE_BYTES);
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, version, nonce, context);
            byte[] plaintext = cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES);
            return new String(plaintext, StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("sealed value does not open with key version " + version
                    + ": other key or context, or altered");
        }
    }

    private Cipher cipher(int mode, int version, byte[] nonce, String context) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance(TRANSFORMATION);
        cipher.init(mode, keys.get(version), new GCMParameterSpec(TAG_BITS, nonce));
        // the version byte is authenticated too: a value's bytes cannot be relabelled to another key version
        cipher.updateAAD(new byte[] {(byte) version});
        cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
