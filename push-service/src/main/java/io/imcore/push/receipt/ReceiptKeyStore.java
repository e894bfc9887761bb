package io.imcore.push.receipt;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.CertificateSecrets;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The apps' receipt keys ({@code push_apps.receipt_key_enc}, sealed with the certificate key set so that push-worker
 * can open them for the callback URLs it gives providers). A key is 24 random bytes in base64url (32 characters: the
 * URL must fit vivo's and Meizu's 128-character callback fields), made on the admin's first read and replaced by a
 * rotation. The key is per app only: an app without a push_apps row gets one (push stays off: the row's default).
 */
@ApplicationScoped
public class ReceiptKeyStore {

    private static final int KEY_BYTES = 24;

    private final Database database;
    private final CertificateSecrets secrets;
    private final SecureRandom random = new SecureRandom();
    /**
     * Each app's key as last opened, by its sealed bytes: every provider callback reads the sealed key (so a rotation
     * anywhere is seen at once) but opens it only when it changed; opening was most of a callback's key check.
     */
    private final Map<String, Opened> opened = new ConcurrentHashMap<>();

    private record Opened(byte[] sealed, String key) {}

    public ReceiptKeyStore(Database database, CertificateSecrets secrets) {
        this.database = database;
        this.secrets = secrets;
    }

    /** The app's key, made now when it has none (two first reads at once: the first stored wins, both answer it). */
    public String getOrCreate(String appId) {
        return database.inTransaction(c -> {
            String key = newKey();
            try (PreparedStatement ps = c.prepareStatement("insert into push_apps as a (app_id, push_enabled,"
                    + " receipt_key_enc) values (?, false, ?) on conflict (app_id) do update"
                    + " set receipt_key_enc = coalesce(a.receipt_key_enc, excluded.receipt_key_enc)"
                    + " returning receipt_key_enc")) {
                ps.setString(1, appId);
                ps.setBytes(2, secrets.sealReceiptKey(key, appId));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return secrets.openReceiptKey(rs.getBytes(1), appId);
                }
            }
        });
    }

    /** A new key for the app: the old one is refused from now on. */
    public String rotate(String appId) {
        String key = newKey();
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_apps as a (app_id, push_enabled,"
                    + " receipt_key_enc) values (?, false, ?) on conflict (app_id) do update"
                    + " set receipt_key_enc = excluded.receipt_key_enc")) {
                ps.setString(1, appId);
                ps.setBytes(2, secrets.sealReceiptKey(key, appId));
                return ps.executeUpdate();
            }
        });
        return key;
    }

    /**
     * The app's current key, or empty when the app has none or it no longer opens (sealed with a certificate key
     * since removed from the configuration: the admin rotates it).
     */
    Optional<String> find(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select receipt_key_enc from push_apps where app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                byte[] sealed = rs.next() ? rs.getBytes(1) : null;
                if (sealed == null) {
                    return Optional.empty();
                }
                Opened last = opened.get(appId);
                if (last != null && Arrays.equals(last.sealed(), sealed)) {
                    return Optional.of(last.key());
                }
                try {
                    String key = secrets.openReceiptKey(sealed, appId);
                    opened.put(appId, new Opened(sealed, key));
                    return Optional.of(key);
                } catch (IllegalArgumentException e) {
                    return Optional.empty();
                }
            }
        }
    }

    private String newKey() {
        byte[] bytes = new byte[KEY_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
