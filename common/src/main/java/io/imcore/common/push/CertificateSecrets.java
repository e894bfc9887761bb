package io.imcore.common.push;

import io.imcore.common.security.SecretBox;

/**
 * Encryption of the secret columns of {@code push_certificates} (docs/push-certificates.md), shared by push-service
 * (which stores certificates) and push-worker (which signs provider calls with them): one key setting, one
 * associated-data format, so what one service seals the other opens.
 */
public final class CertificateSecrets {

    public static final String KEY_SETTING = "im.push.certificate-key";

    /** The sealed columns. */
    public enum Column {
        APP_SECRET("app_secret"),
        CERTIFICATE("certificate");

        private final String columnName;

        Column(String columnName) {
            this.columnName = columnName;
        }
    }

    private final SecretBox box;

    /** @param base64Key the value of {@value #KEY_SETTING}; missing or not 32 bytes fails here */
    public CertificateSecrets(String base64Key) {
        this.box = new SecretBox(KEY_SETTING, base64Key);
    }

    public byte[] seal(String value, String appId, int provider, int environment, Column column) {
        return box.seal(value, context(appId, provider, environment, column));
    }

    public String open(byte[] sealed, String appId, int provider, int environment, Column column) {
        return box.open(sealed, context(appId, provider, environment, column));
    }

    /**
     * The associated data that binds a sealed value to its row and column. The fixed-format parts come first and the
     * app id last, so no two rows or columns share a context whatever characters the app id holds.
     */
    private static String context(String appId, int provider, int environment, Column column) {
        return "push_certificates/" + provider + "/" + environment + "/" + column.columnName + "/" + appId;
    }
}
