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
import java.util.Map;
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

    // ---------------------------------------------------------------- key versions

    private final String key1 = randomKey(32);
    private final String key2 = randomKey(32);

    @Test
    void newValuesAreSealedWithTheCurrentKeyAndTheirFirstByteNamesIt() {
        SecretBox rotated = new SecretBox(Map.of(1, key1, 2, key2), 2, version -> "keys");
        byte[] sealed = rotated.seal(SECRET, CONTEXT);
        assertEquals(2, sealed[0]);
        assertEquals(2, SecretBox.versionOf(sealed));
        assertTrue(rotated.isCurrent(sealed));
        assertEquals(SECRET, rotated.open(sealed, CONTEXT));
        assertEquals(1, new SecretBox("k", key1).seal(SECRET, CONTEXT)[0], "a single key is version 1");
    }

    @Test
    void aValueOpensWithTheKeyItsVersionNamesWhileThatKeyIsConfigured() {
        byte[] onKey1 = new SecretBox("k", key1).seal(SECRET, CONTEXT);
        SecretBox rotated = new SecretBox(Map.of(1, key1, 2, key2), 2, version -> "keys");
        assertFalse(rotated.isCurrent(onKey1));
        assertEquals(SECRET, rotated.open(onKey1, CONTEXT));

        SecretBox retired = new SecretBox(Map.of(2, key2), 2, version -> "keys");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> retired.open(onKey1, CONTEXT));
        assertTrue(e.getMessage().contains("key version 1, which is not configured"), e.getMessage());
    }

    @Test
    void theVersionByteIsAuthenticatedSoAValueCannotBeRelabelled() {
        // both versions hold the same key: only the authenticated version byte tells them apart
        SecretBox sameKeyTwice = new SecretBox(Map.of(1, key1, 2, key1), 1, version -> "keys");
        byte[] relabelled = sameKeyTwice.seal(SECRET, CONTEXT);
        relabelled[0] = 2;
        assertThrows(IllegalArgumentException.class, () -> sameKeyTwice.open(relabelled, CONTEXT));
    }

    @Test
    void badKeySetsAreRefusedNamingTheSetting() {
        assertThrows(IllegalStateException.class, () -> new SecretBox(Map.of(), 1, version -> "keys"));
        IllegalStateException noCurrent = assertThrows(IllegalStateException.class,
                () -> new SecretBox(Map.of(1, key1), 2, version -> "keys"));
        assertTrue(noCurrent.getMessage().contains("current key version 2"), noCurrent.getMessage());
        for (int version : new int[] {0, 256, -1}) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> new SecretBox(Map.of(version, key1), version, v -> "keys v" + v));
            assertTrue(e.getMessage().startsWith("keys v" + version), e.getMessage());
        }
        IllegalStateException shortKey = assertThrows(IllegalStateException.class,
                () -> new SecretBox(Map.of(1, key1, 7, randomKey(16)), 1, v -> "keys v" + v));
        assertTrue(shortKey.getMessage().startsWith("keys v7 decodes to 16 bytes"), shortKey.getMessage());
    }

    @Test
    void badKeysAreRefusedNamingTheSetting() {
        for (String bad : new String[] {null, "", "  ", "not base64!", randomKey(16), randomKey(31), randomKey(33)}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> new SecretBox("test.key", bad));
            assertTrue(e.getMessage().startsWith("test.key "), e.getMessage());
        }
    }
}
