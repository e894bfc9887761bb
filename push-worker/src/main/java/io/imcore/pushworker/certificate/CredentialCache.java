package io.imcore.pushworker.certificate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.CertificateSecrets.Column;
import io.imcore.pushcontract.CertificateSecrets;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.WorkerConfig;
import io.imcore.pushworker.channel.Credentials;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * The apps' decrypted certificates per channel and environment, each read again after
 * {@code im.push.worker.credentials-ttl}; {@link Credentials#version()} tells adapters when one was re-uploaded.
 */
@Startup // a missing or malformed certificate key set stops the worker at startup, not at its first batch
@ApplicationScoped
public class CredentialCache {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = Logger.getLogger(CredentialCache.class);

    private record Key(String appId, Channel channel, int environment) {}

    private record Entry(Optional<Credentials> credentials, long loadedAtNanos) {}

    private final Database database;
    private final CertificateSecrets secrets;
    private final long ttlNanos;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();

    public CredentialCache(Database database, WorkerConfig config, Config keys) {
        this.database = database;
        this.secrets = CertificateSecrets.fromConfig(keys);
        this.ttlNanos = config.credentialsTtl().toNanos();
    }

    /** The app's certificate for the channel and environment, or empty when it has none (or it does not decrypt). */
    public Optional<Credentials> get(String appId, Channel channel, int environment) {
        Key key = new Key(appId, channel, environment);
        Entry entry = entries.get(key);
        if (entry == null || System.nanoTime() - entry.loadedAtNanos > ttlNanos) {
            entry = new Entry(load(key), System.nanoTime());
            entries.put(key, entry);
        }
        return entry.credentials;
    }

    /**
     * The same read, bypassing the cache (and refreshing it): a test send right after an upload or a replacement
     * uses the certificate just saved, not one cached up to {@code credentials-ttl} ago.
     */
    public Optional<Credentials> reload(String appId, Channel channel, int environment) {
        Key key = new Key(appId, channel, environment);
        Entry entry = new Entry(load(key), System.nanoTime());
        entries.put(key, entry);
        return entry.credentials;
    }

    private Optional<Credentials> load(Key key) {
        int provider = key.channel.provider();
        return database.read(c -> {
            // the app's receipt key with it: a rotation reaches the callback URLs within credentials-ttl
            try (PreparedStatement ps = c.prepareStatement("select name, provider_app_id, app_key, app_secret_enc,"
                    + " certificate_enc, c.updated_at, message_defaults::text, a.receipt_key_enc"
                    + " from push_certificates c left join push_apps a using (app_id)"
                    + " where c.app_id = ? and provider = ? and environment = ?")) {
                ps.setString(1, key.appId);
                ps.setInt(2, provider);
                ps.setInt(3, key.environment);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    try {
                        return Optional.of(new Credentials(key.appId, key.channel, key.environment, rs.getString(1),
                                rs.getString(2), rs.getString(3),
                                secrets.open(rs.getBytes(4), key.appId, provider, key.environment, Column.APP_SECRET),
                                secrets.open(rs.getBytes(5), key.appId, provider, key.environment, Column.CERTIFICATE),
                                ChronoUnit.MICROS.between(java.time.Instant.EPOCH, rs.getTimestamp(6).toInstant()),
                                (ObjectNode) JSON.readTree(rs.getString(7)), receiptKey(key.appId, rs.getBytes(8))));
                    } catch (RuntimeException | JsonProcessingException e) {
                        LOG.errorf("app %s: the %s certificate (environment %d) does not decrypt or parse: %s", key.appId,
                                key.channel.wireName(), key.environment, e.getMessage());
                        return Optional.empty();
                    }
                }
            }
        });
    }

    /** The app's receipt key, or null when it has none or it does not open (then no receipt is asked for). */
    private String receiptKey(String appId, byte[] sealed) {
        if (sealed == null) {
            return null;
        }
        try {
            return secrets.openReceiptKey(sealed, appId);
        } catch (IllegalArgumentException e) {
            LOG.errorf("app %s: the receipt key does not decrypt (%s): no receipts are asked for", appId,
                    e.getMessage());
            return null;
        }
    }
}
