package io.imcore.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class SecretBoxTest {

    private static final String CONTEXT = "push_certificates/1/1/app_secret/app1";
    private static final String SECRET = "-----BEGIN PRIVATE KEY-----\nsecret ключ\n-----END PRIVATE KEY-----";

    private static String randomKey(int bytes) {
        byte[] key = new byte[bytes];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private final SecretBox box = new SecretBox("test.key", randomKey(32));

    @Test
    void roundTrip() {
        byte[] sealed = box.seal(SECRET, CONTEXT);
        assertEquals(SECRET, box.open(sealed, CONTEXT));
        assertEquals("", box.open(box.seal("", CONTEXT), CONTEXT));
    }

    @Test
    void sealedValueIsVersionNonceCiphertextAndTag() {
        byte[] sealed = box.seal(SECRET, CONTEXT);
        int plaintextBytes = SECRET.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(1, sealed[0]);
        assertEquals(1 + 12 + plaintextBytes + 16, sealed.length);
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains("secret"));
    }

    @Test
    void everySealUsesAFreshNonce() {
        byte[] first = box.seal(SECRET, CONTEXT);
        byte[] second = box.seal(SECRET, CONTEXT);
        assertNotEquals(Arrays.toString(Arrays.copyOfRange(first, 1, 13)),
                Arrays.toString(Arrays.copyOfRange(second, 1, 13)));
    }

    @Test
    void tamperingFails() {
        byte[] sealed = box.seal(SECRET, CONTEXT);
        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= 0x01;
            assertThrows(IllegalArgumentException.class, () -> box.open(altered, CONTEXT), "byte " + i);
        }
        assertThrows(IllegalArgumentException.class,
                () -> box.open(Arrays.copyOf(sealed, sealed.length - 1), CONTEXT));
        assertThrows(IllegalArgumentException.class, () -> box.open(new byte[0], CONTEXT));
    }

    @Test
    void wrongContextFails() {
        byte[] sealed = box.seal(SECRET, CONTEXT);
        assertThrows(IllegalArgumentException.class,
                () -> box.open(sealed, "push_certificates/1/1/app_secret/app2"));
        assertThrows(IllegalArgumentException.class,
                () -> box.open(sealed, "push_certificates/1/1/certificate/app1"));
    }

    @Test
    void wrongKeyFails() {
        byte[] sealed = box.seal(SECRET, CONTEXT);
        SecretBox other = new SecretBox("test.key", randomKey(32));
        assertThrows(IllegalArgumentException.class, () -> other.open(sealed, CONTEXT));
    }

    @Test
    void badKeysAreRefusedNamingTheSetting() {
        for (String bad : new String[] {null, "", "  ", "not base64!", randomKey(16), randomKey(31), randomKey(33)}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> new SecretBox("test.key", bad));
            assertTrue(e.getMessage().startsWith("test.key "), e.getMessage());
        }
    }
}
