package io.imcore.push.certificate;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.CertificateSecrets.Column;
import io.imcore.pushcontract.CertificateSecrets;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Re-encryption after a certificate key rotation (docs/push-certificates.md "Key rotation"): re-seals, with the
 * current key, every stored secret whose version byte names an older key. Rows go in key order, a small batch per
 * transaction, each batch's rows locked ({@code for update skip locked}), so a kill -9 loses at most one uncommitted
 * batch, which the next run redoes; rows already on the current key are never selected, so runs are idempotent and
 * several replicas may run at once. The plaintext does not change, so {@code updated_at} (push-worker's certificate
 * version) is left alone.
 */
@ApplicationScoped
public class CertificateResealer {

    private static final Logger LOG = Logger.getLogger(CertificateResealer.class);
    private static final String ON_AN_OLDER_KEY =
            "(get_byte(app_secret_enc, 0) <> ? or get_byte(certificate_enc, 0) <> ?)";

    /** The last row a batch handled, in key order; the next batch starts after it. */
    record Cursor(String appId, int provider, int environment) {}

    /**
     * @param last the last row looked at, or null when no row was left
     */
    record Batch(int resealed, int failed, Cursor last) {}

    /** What one run did, and how many rows were still on an older key when it ended (the failed ones, or new). */
    public record Run(long resealed, long failed, long left) {}

    private final Database database;
    private final CertificateSecrets secrets;
    private final boolean enabled;
    private final int batchSize;
    private final Counter resealed;
    private final Counter failed;
    private final AtomicLong left = new AtomicLong();

    @Inject
    public CertificateResealer(Database database, CertificateSecrets secrets, MeterRegistry registry,
            @ConfigProperty(name = "im.push.certificate-reseal.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "im.push.certificate-reseal.batch-size", defaultValue = "100") int batchSize) {
        this.database = database;
        this.secrets = secrets;
        this.enabled = enabled;
        this.batchSize = batchSize;
        this.resealed = registry.counter("imcore.push.certificate.reseals", "result", "resealed");
        this.failed = registry.counter("imcore.push.certificate.reseals", "result", "failed");
        registry.gauge("imcore.push.certificate.rows.on.older.key", left);
    }

    /** Shortly after start and then every interval: a restart, or the next interval, finishes an interrupted run. */
    @Scheduled(every = "${im.push.certificate-reseal.interval}", delayed = "${im.push.certificate-reseal.delay}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (enabled) {
            resealAll();
        }
    }

    /** Re-seals every row on an older key, batch by batch, and logs the progress. */
    public Run resealAll() {
        long resealedRows = 0;
        long failedRows = 0;
        Batch batch = resealBatch(null);
        while (batch.last() != null) {
            resealedRows += batch.resealed();
            failedRows += batch.failed();
            LOG.infof("certificate key rotation: %d rows re-sealed with key version %d so far (%d failed)",
                    resealedRows, secrets.currentVersion(), failedRows);
            batch = resealBatch(batch.last());
        }
        resealedRows += resealReceiptKeys();
        long stillOld = rowsOnAnOlderKey();
        left.set(stillOld);
        if (resealedRows + failedRows > 0 || stillOld > 0) {
            LOG.infof("certificate key rotation: run done, %d rows re-sealed, %d failed, %d still on an older key",
                    resealedRows, failedRows, stillOld);
        }
        return new Run(resealedRows, failedRows, stillOld);
    }

    /** One transaction: the next rows after {@code after} (null: from the start) that are on an older key. */
    Batch resealBatch(Cursor after) {
        return database.inTransaction(c -> {
            int current = secrets.currentVersion();
            String sql = "select app_id, provider, environment, app_secret_enc, certificate_enc from push_certificates"
                    + " where " + ON_AN_OLDER_KEY
                    + (after == null ? "" : " and (app_id, provider, environment) > (?, ?, ?)")
                    + " order by app_id, provider, environment limit ? for update skip locked";
            int done = 0;
            int broken = 0;
            Cursor last = null;
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                int i = 0;
                ps.setInt(++i, current);
                ps.setInt(++i, current);
                if (after != null) {
                    ps.setString(++i, after.appId());
                    ps.setInt(++i, after.provider());
                    ps.setInt(++i, after.environment());
                }
                ps.setInt(++i, batchSize);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        last = new Cursor(rs.getString(1), rs.getInt(2), rs.getInt(3));
                        if (reseal(c, last, rs.getBytes(4), rs.getBytes(5))) {
                            done++;
                        } else {
                            broken++;
                        }
                    }
                }
            }
            resealed.increment(done);
            failed.increment(broken);
            return new Batch(done, broken, last);
        });
    }

    /** Re-seals the row's two secrets with the current key; false (row left as it is) when one does not open. */
    private boolean reseal(Connection c, Cursor row, byte[] appSecret, byte[] certificate) throws SQLException {
        byte[] newAppSecret;
        byte[] newCertificate;
        try {
            newAppSecret = resealed(appSecret, row, Column.APP_SECRET);
            newCertificate = resealed(certificate, row, Column.CERTIFICATE);
        } catch (IllegalArgumentException e) {
            LOG.errorf("certificate key rotation: app %s provider %d environment %d does not open, left as it is: %s",
                    row.appId(), row.provider(), row.environment(), e.getMessage());
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("update push_certificates set app_secret_enc = ?,"
                + " certificate_enc = ? where app_id = ? and provider = ? and environment = ?")) {
            ps.setBytes(1, newAppSecret);
            ps.setBytes(2, newCertificate);
            ps.setString(3, row.appId());
            ps.setInt(4, row.provider());
            ps.setInt(5, row.environment());
            ps.executeUpdate();
        }
        return true;
    }

    /**
     * The apps' receipt keys ({@code push_apps.receipt_key_enc}) are sealed with the same key set: re-sealed the same
     * way, a batch per transaction in app order, so retiring an old key never kills an app's receipt callbacks.
     */
    long resealReceiptKeys() {
        long total = 0;
        String after = "";
        while (after != null) {
            String from = after;
            Object[] batch = database.inTransaction(c -> {
                int done = 0;
                String last = null;
                try (PreparedStatement ps = c.prepareStatement("select app_id, receipt_key_enc from push_apps"
                        + " where get_byte(receipt_key_enc, 0) <> ? and app_id > ? order by app_id limit ?"
                        + " for update skip locked")) {
                    ps.setInt(1, secrets.currentVersion());
                    ps.setString(2, from);
                    ps.setInt(3, batchSize);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            last = rs.getString(1);
                            if (resealReceiptKey(c, last, rs.getBytes(2))) {
                                done++;
                            }
                        }
                    }
                }
                return new Object[] {done, last};
            });
            total += (int) batch[0];
            after = (String) batch[1];
        }
        return total;
    }

    private boolean resealReceiptKey(Connection c, String appId, byte[] sealed) throws SQLException {
        byte[] resealedKey;
        try {
            resealedKey = secrets.sealReceiptKey(secrets.openReceiptKey(sealed, appId), appId);
        } catch (IllegalArgumentException e) {
            failed.increment();
            LOG.errorf("certificate key rotation: the receipt key of app %s does not open, left as it is: %s", appId,
                    e.getMessage());
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("update push_apps set receipt_key_enc = ? where app_id = ?")) {
            ps.setBytes(1, resealedKey);
            ps.setString(2, appId);
            ps.executeUpdate();
        }
        resealed.increment();
        return true;
    }

    private byte[] resealed(byte[] sealed, Cursor row, Column column) {
        if (secrets.isCurrent(sealed)) {
            return sealed;
        }
        String plaintext = secrets.open(sealed, row.appId(), row.provider(), row.environment(), column);
        return secrets.seal(plaintext, row.appId(), row.provider(), row.environment(), column);
    }

    private long rowsOnAnOlderKey() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select count(*) from push_certificates where " + ON_AN_OLDER_KEY)) {
                int current = secrets.currentVersion();
                ps.setInt(1, current);
                ps.setInt(2, current);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    long certificates = rs.getLong(1);
                    try (PreparedStatement keys = c.prepareStatement(
                            "select count(*) from push_apps where get_byte(receipt_key_enc, 0) <> ?")) {
                        keys.setInt(1, current);
                        try (ResultSet counted = keys.executeQuery()) {
                            counted.next();
                            return certificates + counted.getLong(1);
                        }
                    }
                }
            }
        });
    }
}
