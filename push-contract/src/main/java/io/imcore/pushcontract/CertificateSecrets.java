package io.imcore.pushcontract;

import io.imcore.common.security.SecretBox;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;

/**
 * Encryption of the secret columns of {@code push_certificates} (docs/push-certificates.md) and of the apps' receipt
 * keys ({@code push_apps.receipt_key_enc}), shared by push-service (which stores them) and push-worker (which signs
 * provider calls with the certificates and puts the receipt key in the callback URL it gives them): one key-set
 * configuration, one associated-data format, so what one service seals the other opens.
 *
 * <p>Keys: {@value #KEYS_SETTING} = {@code 1:<base64>,2:<base64>} holds numbered keys, and the single-key setting
 * {@value #KEY_SETTING} is key 1. New values are sealed with {@value #CURRENT_SETTING} (default: the highest
 * version); a stored value opens with the key its version byte names.
 */
public final class CertificateSecrets {

    /** The original single key: key version 1. */
    public static final String KEY_SETTING = "im.push.certificate-key";
    public static final String KEYS_SETTING = "im.push.certificate-keys";
    public static final String CURRENT_SETTING = "im.push.certificate-key-current";

    /** The sealed columns. */
    public enum Column {
        APP_SECRET("app_secret"),
        CERTIFICATE("certificate");

        private final String columnName;

        Column(String columnName) {
            this.columnName = columnName;
        }
    }

    private static final int LEGACY_VERSION = 1;

    private final SecretBox box;

    /** A single key, version 1: the value of {@value #KEY_SETTING}; missing or not 32 bytes fails here. */
    public CertificateSecrets(String base64Key) {
        this(base64Key, null, null);
    }

    /**
     * @param legacyKey the value of {@value #KEY_SETTING} (key 1), or null
     * @param keys      the value of {@value #KEYS_SETTING}, or null
     * @param current   the value of {@value #CURRENT_SETTING}, or null for the highest configured version
     * @throws IllegalStateException naming the setting when the configuration is not a usable key set
     */
    public CertificateSecrets(String legacyKey, String keys, String current) {
        TreeMap<Integer, String> byVersion = parseKeys(keys);
        if (!isBlank(legacyKey)) {
            String listed = byVersion.get(LEGACY_VERSION);
            if (listed != null && !listed.strip().equals(legacyKey.strip())) {
                throw new IllegalStateException(KEY_SETTING + " is key version " + LEGACY_VERSION + ", but "
                        + KEYS_SETTING + " gives version " + LEGACY_VERSION + " another key");
            }
            byVersion.put(LEGACY_VERSION, legacyKey);
        }
        if (byVersion.isEmpty()) {
            throw new IllegalStateException(KEY_SETTING + " or " + KEYS_SETTING + " must be set: the AES-256 key(s)"
                    + " that encrypt push certificates (base64 of 32 random bytes, e.g. openssl rand -base64 32)");
        }
        int currentVersion = isBlank(current) ? byVersion.lastKey()
                : parseVersion(CURRENT_SETTING, current.strip());
        if (!byVersion.containsKey(currentVersion)) {
            throw new IllegalStateException(CURRENT_SETTING + " is " + currentVersion + ", but that key version is"
                    + " not configured (configured: " + byVersion.keySet() + ")");
        }
        this.box = new SecretBox(byVersion, currentVersion,
                version -> version == LEGACY_VERSION && !isBlank(legacyKey) ? KEY_SETTING
                        : KEYS_SETTING + " (version " + version + ")");
    }

    /** The key set of the configuration: {@value #KEY_SETTING}, {@value #KEYS_SETTING}, {@value #CURRENT_SETTING}. */
    public static CertificateSecrets fromConfig(Config config) {
        return new CertificateSecrets(config.getOptionalValue(KEY_SETTING, String.class).orElse(null),
                config.getOptionalValue(KEYS_SETTING, String.class).orElse(null),
                config.getOptionalValue(CURRENT_SETTING, String.class).orElse(null));
    }

    /** {@code 1:<base64>,2:<base64>}: versions 1..255, each once. */
    private static TreeMap<Integer, String> parseKeys(String keys) {
        TreeMap<Integer, String> byVersion = new TreeMap<>();
        if (isBlank(keys)) {
            return byVersion;
        }
        for (String entry : keys.split(",")) {
            int colon = entry.indexOf(':');
            if (colon < 0) {
                // the entry is not quoted: it may hold key material
                throw new IllegalStateException(KEYS_SETTING + ": an entry is not <version>:<base64 key>");
            }
            int version = parseVersion(KEYS_SETTING, entry.substring(0, colon).strip());
            if (byVersion.put(version, entry.substring(colon + 1).strip()) != null) {
                throw new IllegalStateException(KEYS_SETTING + ": key version " + version + " is given twice");
            }
        }
        return byVersion;
    }

    private static int parseVersion(String setting, String text) {
        try {
            int version = Integer.parseInt(text);
            if (version >= SecretBox.MIN_VERSION && version <= SecretBox.MAX_VERSION) {
                return version;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalStateException(setting + ": key version '" + text + "' is not a number between "
                + SecretBox.MIN_VERSION + " and " + SecretBox.MAX_VERSION);
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    public byte[] seal(String value, String appId, int provider, int environment, Column column) {
        return box.seal(value, context(appId, provider, environment, column));
    }

    /** @throws IllegalArgumentException when the value's key version is not configured, or it does not open */
    public String open(byte[] sealed, String appId, int provider, int environment, Column column) {
        return box.open(sealed, context(appId, provider, environment, column));
    }

    /** The key version new values are sealed with. */
    public int currentVersion() {
        return box.currentVersion();
    }

    /** Whether a stored value is sealed with the current key (else re-encryption should re-seal it). */
    public boolean isCurrent(byte[] sealed) {
        return box.isCurrent(sealed);
    }

    /** Seals an app's receipt key ({@code push_apps.receipt_key_enc}). */
    public byte[] sealReceiptKey(String key, String appId) {
        return box.seal(key, "push_apps/receipt_key/" + appId);
    }

    /** @throws IllegalArgumentException when the value's key version is not configured, or it does not open */
    public String openReceiptKey(byte[] sealed, String appId) {
        return box.open(sealed, "push_apps/receipt_key/" + appId);
    }

    /**
     * The associated data that binds a sealed value to its row and column. The fixed-format parts come first and the
     * app id last, so no two rows or columns share a context whatever characters the app id holds.
     */
    private static String context(String appId, int provider, int environment, Column column) {
        return "push_certificates/" + provider + "/" + environment + "/" + column.columnName + "/" + appId;
    }
}
