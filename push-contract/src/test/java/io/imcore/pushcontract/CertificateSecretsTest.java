package io.imcore.pushcontract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.security.SecretBox;
import io.imcore.pushcontract.CertificateSecrets.Column;
import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The certificate key set from its three settings, and values moving from one key version to the next. */
class CertificateSecretsTest {

    private static final String APP = "app-1";

    private final String key1 = randomKey();
    private final String key2 = randomKey();
    private final String key3 = randomKey();

    private static String randomKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private static byte[] seal(CertificateSecrets secrets, String value) {
        return secrets.seal(value, APP, 2, 1, Column.APP_SECRET);
    }

    private static String open(CertificateSecrets secrets, byte[] sealed) {
        return secrets.open(sealed, APP, 2, 1, Column.APP_SECRET);
    }

    @Test
    void theSingleKeySettingIsKeyVersion1() {
        CertificateSecrets legacy = new CertificateSecrets(key1);
        byte[] sealed = seal(legacy, "secret");
        assertEquals(1, SecretBox.versionOf(sealed));
        assertEquals(1, legacy.currentVersion());
        assertEquals("secret", open(new CertificateSecrets(null, "1:" + key1, null), sealed));
    }

    @Test
    void aRotationAddsAKeyThenSwitchesToItAndOldValuesStillOpen() {
        byte[] beforeRotation = seal(new CertificateSecrets(key1), "old");

        // step 1: the new key is known everywhere, values are still sealed with key 1
        CertificateSecrets added = new CertificateSecrets(key1, "2:" + key2, "1");
        assertEquals(1, added.currentVersion());
        byte[] duringRollout = seal(added, "mid");
        assertEquals(1, SecretBox.versionOf(duringRollout));

        // step 2: key 2 is current (the default: the highest version); key 1 still opens the older values
        CertificateSecrets switched = new CertificateSecrets(key1, "2:" + key2, null);
        assertEquals(2, switched.currentVersion());
        assertFalse(switched.isCurrent(beforeRotation));
        assertEquals("old", open(switched, beforeRotation));
        byte[] resealed = seal(switched, open(switched, beforeRotation));
        assertTrue(switched.isCurrent(resealed));

        // step 3: key 1 retired; a re-sealed value opens, one left on key 1 does not
        CertificateSecrets retired = new CertificateSecrets(null, "2:" + key2, null);
        assertEquals("old", open(retired, resealed));
        assertThrows(IllegalArgumentException.class, () -> open(retired, duringRollout));
    }

    @Test
    void theKeyListToleratesSpacesAndTheCurrentVersionPicksAmongThem() {
        CertificateSecrets secrets = new CertificateSecrets(null, " 3:" + key3 + " , 1: " + key1 + ",2:" + key2, " 2 ");
        assertEquals(2, secrets.currentVersion());
        assertEquals("x", open(secrets, seal(new CertificateSecrets(null, "3:" + key3, null), "x")));
        assertEquals(3, new CertificateSecrets(null, "3:" + key3 + ",1:" + key1, null).currentVersion());
        assertEquals(2, new CertificateSecrets(key1, "1:" + key1 + ",2:" + key2, null).currentVersion(),
                "the single key may also be listed as version 1");
    }

    @Test
    void aValueBelongsToItsRowAndColumn() {
        CertificateSecrets secrets = new CertificateSecrets(key1, "2:" + key2, null);
        byte[] sealed = seal(secrets, "secret");
        assertThrows(IllegalArgumentException.class, () -> secrets.open(sealed, "app-2", 2, 1, Column.APP_SECRET));
        assertThrows(IllegalArgumentException.class, () -> secrets.open(sealed, APP, 2, 1, Column.CERTIFICATE));
        assertThrows(IllegalArgumentException.class, () -> secrets.open(sealed, APP, 2, 0, Column.APP_SECRET));
    }

    @Test
    void unusableConfigurationsFailNamingTheSetting() {
        assertRefused(null, null, null, "im.push.certificate-key or im.push.certificate-keys must be set");
        assertRefused("", " ", "2", "im.push.certificate-key or im.push.certificate-keys must be set");
        assertRefused(null, "2=" + key2, null, "im.push.certificate-keys: an entry is not <version>:<base64 key>");
        assertRefused(null, "2:" + key2 + ",2:" + key3, null, "im.push.certificate-keys: key version 2 is given twice");
        assertRefused(null, "0:" + key2, null, "im.push.certificate-keys: key version '0' is not a number");
        assertRefused(null, "x:" + key2, null, "im.push.certificate-keys: key version 'x' is not a number");
        assertRefused(key1, "2:" + key2, "3", "im.push.certificate-key-current is 3, but that key version is not");
        assertRefused(key1, "2:" + key2, "two", "im.push.certificate-key-current: key version 'two'");
        assertRefused(key1, "1:" + key2, null, "im.push.certificate-key is key version 1, but");
        assertRefused(key1, "2:c2hvcnQ=", null, "im.push.certificate-keys (version 2) decodes to 5 bytes");
        assertRefused("c2hvcnQ=", "2:" + key2, null, "im.push.certificate-key decodes to 5 bytes");
    }

    @Test
    void aMalformedEntryIsNotQuotedInTheError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CertificateSecrets(null, key2, null));
        assertFalse(e.getMessage().contains(key2), "the key must not reach logs: " + e.getMessage());
    }

    private static void assertRefused(String legacy, String keys, String current, String messageStart) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CertificateSecrets(legacy, keys, current));
        assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    }
}
