package io.imcore.push.certificate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.security.SecretBox;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.CertificateSecrets.Column;
import io.imcore.pushcontract.CertificateSecrets;
import io.imcore.pushcontract.Channel;
import io.imcore.testing.InfrastructureResource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Re-encryption after a key rotation. The test profile is rotated (im.push.certificate-key is version 1,
 * im.push.certificate-keys adds version 2, the current one); rows are written as a service configured with the
 * single key wrote them before the rotation, then re-sealed by the job.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class CertificateResealerTest {

    private static final List<Channel> VENDORS = List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO,
            Channel.VIVO, Channel.MEIZU);

    @Inject
    Database database;
    @Inject
    CertificateSecrets secrets;
    @Inject
    CertificateStore store;
    @Inject
    CertificateResealer scheduledJob;
    @ConfigProperty(name = CertificateSecrets.KEY_SETTING)
    String keyVersion1;

    private final String appId = "reseal-" + UUID.randomUUID();

    /**
     * The job re-seals the whole table: rows other test classes of this JVM left behind (some written with bytes
     * that open under no key) would count in its figures. Those classes have finished; their rows go.
     */
    @BeforeEach
    void onlyThisTestsRows() {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from push_certificates where app_id <> ?")) {
                ps.setString(1, appId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @AfterEach
    void removeRows() {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("delete from push_certificates where app_id = ?")) {
                ps.setString(1, appId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Test
    void newWritesUseTheCurrentKey() {
        assertEquals(2, secrets.currentVersion());
        assertEquals(2, SecretBox.versionOf(secrets.seal("x", appId, 2, 1, Column.APP_SECRET)));
    }

    @Test
    void anInterruptedRunIsFinishedByTheNextAndEveryRowEndsOnTheNewestKey() {
        insertRowsOnKeyVersion1();
        assertEquals(List.of("1/1", "1/1", "1/1", "1/1", "1/1"), versions());

        // a replica re-seals one batch of two rows, then is killed before the next
        CertificateResealer.Batch first = resealer(2).resealBatch(null);
        assertEquals(2, first.resealed());
        assertEquals(List.of("2/2", "2/2", "1/1", "1/1", "1/1"), versions());
        assertEveryRowOpensToItsSecrets();
        List<byte[]> afterInterruption = sealedAppSecrets();
        List<Long> updatedAt = updatedAt();

        // the restarted replica finishes the rows left on key 1 and leaves the re-sealed ones alone
        CertificateResealer.Run rest = resealer(2).resealAll();
        assertEquals(new CertificateResealer.Run(3, 0, 0), rest);
        assertEquals(List.of("2/2", "2/2", "2/2", "2/2", "2/2"), versions());
        assertArrayEquals(afterInterruption.get(0), sealedAppSecrets().get(0));
        assertArrayEquals(afterInterruption.get(1), sealedAppSecrets().get(1));
        assertEveryRowOpensToItsSecrets();
        assertEquals(updatedAt, updatedAt(), "the plaintext is unchanged: push-worker's certificate version too");

        // idempotent: nothing left to do
        List<byte[]> done = sealedAppSecrets();
        assertEquals(new CertificateResealer.Run(0, 0, 0), scheduledJob.resealAll());
        for (int i = 0; i < done.size(); i++) {
            assertArrayEquals(done.get(i), sealedAppSecrets().get(i));
        }
    }

    @Test
    void aRowLockedByAnotherTransactionIsLeftToTheNextRun() throws Exception {
        insertRowsOnKeyVersion1();
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("select 1 from push_certificates"
                    + " where app_id = ? and provider = ? for update")) {
                ps.setString(1, appId);
                ps.setInt(2, Channel.OPPO.provider());
                ps.executeQuery().close();
            }
            locked.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
        holder.start();
        try {
            assertTrue(locked.await(20, TimeUnit.SECONDS));
            CertificateResealer.Run run = resealer(2).resealAll();
            assertEquals(4, run.resealed());
            assertEquals(1, run.left());
            assertEquals(List.of("2/2", "2/2", "1/1", "2/2", "2/2"), versions());
        } finally {
            release.countDown();
            holder.join();
        }
        assertEquals(new CertificateResealer.Run(1, 0, 0), resealer(2).resealAll());
        assertEquals(List.of("2/2", "2/2", "2/2", "2/2", "2/2"), versions());
        assertEveryRowOpensToItsSecrets();
    }

    @Test
    void aRowThatDoesNotOpenIsCountedAndLeftAsItIsAndTheRunGoesOn() {
        insertRowsOnKeyVersion1();
        byte[] unknownKey = seal(new CertificateSecrets(null, "9:" + keyVersion1, null), "lost", Channel.XIAOMI,
                Column.APP_SECRET);
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("update push_certificates set app_secret_enc = ?"
                    + " where app_id = ? and provider = ?")) {
                ps.setBytes(1, unknownKey);
                ps.setString(2, appId);
                ps.setInt(3, Channel.XIAOMI.provider());
                ps.executeUpdate();
            }
            return null;
        });
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();

        CertificateResealer.Run run = new CertificateResealer(database, secrets, metrics, true, 2).resealAll();

        assertEquals(new CertificateResealer.Run(4, 1, 1), run);
        assertEquals(List.of("2/2", "9/1", "2/2", "2/2", "2/2"), versions());
        assertArrayEquals(unknownKey, sealedAppSecrets().get(1));
        assertEquals(4, metrics.get("imcore.push.certificate.reseals").tag("result", "resealed").counter().count());
        assertEquals(1, metrics.get("imcore.push.certificate.reseals").tag("result", "failed").counter().count());
        assertEquals(1, metrics.get("imcore.push.certificate.rows.on.older.key").gauge().value());
    }

    @Test
    void anAppsReceiptKeyIsResealedWithTheCertificatesAndStillOpens() {
        CertificateSecrets beforeRotation = new CertificateSecrets(keyVersion1);
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_apps (app_id, push_enabled,"
                    + " receipt_key_enc) values (?, false, ?)")) {
                ps.setString(1, appId);
                ps.setBytes(2, beforeRotation.sealReceiptKey("the-apps-receipt-key", appId));
                ps.executeUpdate();
            }
            return null;
        });
        try {
            CertificateResealer.Run run = resealer(2).resealAll();
            assertEquals(0, run.left(), "no receipt key left on the older key");
            byte[] sealed = database.read(c -> {
                try (PreparedStatement ps = c.prepareStatement("select receipt_key_enc from push_apps where app_id = ?")) {
                    ps.setString(1, appId);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getBytes(1);
                    }
                }
            });
            assertEquals(2, SecretBox.versionOf(sealed));
            assertEquals("the-apps-receipt-key", secrets.openReceiptKey(sealed, appId));
        } finally {
            database.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement("delete from push_apps where app_id = ?")) {
                    ps.setString(1, appId);
                    ps.executeUpdate();
                }
                return null;
            });
        }
    }

    // ---------------------------------------------------------------- helpers

    private CertificateResealer resealer(int batchSize) {
        return new CertificateResealer(database, secrets, new SimpleMeterRegistry(), true, batchSize);
    }

    /** A certificate per phone-maker provider, sealed as a service with only the single key sealed it. */
    private void insertRowsOnKeyVersion1() {
        CertificateSecrets beforeRotation = new CertificateSecrets(keyVersion1);
        database.inTransaction(c -> {
            for (Channel channel : VENDORS) {
                try (PreparedStatement ps = c.prepareStatement("insert into push_certificates (app_id, provider,"
                        + " environment, name, provider_app_id, app_key, app_secret_enc, certificate_enc)"
                        + " values (?, ?, 1, ?, 'id', 'key', ?, ?)")) {
                    ps.setString(1, appId);
                    ps.setInt(2, channel.provider());
                    ps.setString(3, "cert-" + channel.wireName());
                    ps.setBytes(4, seal(beforeRotation, secretOf(channel), channel, Column.APP_SECRET));
                    ps.setBytes(5, seal(beforeRotation, "file of " + channel.wireName(), channel, Column.CERTIFICATE));
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    private byte[] seal(CertificateSecrets with, String value, Channel channel, Column column) {
        return with.seal(value, appId, channel.provider(), 1, column);
    }

    private static String secretOf(Channel channel) {
        return "secret of " + channel.wireName();
    }

    private void assertEveryRowOpensToItsSecrets() {
        for (Channel channel : VENDORS) {
            Certificate certificate = store.find(appId, channel, 1).orElseThrow();
            assertEquals(secretOf(channel), certificate.appSecret());
            assertEquals("file of " + channel.wireName(), certificate.certificate());
        }
    }

    /** Per row, in the order of VENDORS: the key versions of the two secrets, "app_secret/certificate". */
    private List<String> versions() {
        return rows().stream().map(row -> SecretBox.versionOf(row[0]) + "/" + SecretBox.versionOf(row[1])).toList();
    }

    private List<byte[]> sealedAppSecrets() {
        return rows().stream().map(row -> row[0]).toList();
    }

    private List<byte[][]> rows() {
        return perRow("app_secret_enc, certificate_enc", rs -> new byte[][] {rs.getBytes(1), rs.getBytes(2)});
    }

    private List<Long> updatedAt() {
        return perRow("extract(epoch from updated_at) * 1000000", rs -> rs.getLong(1));
    }

    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** The selected columns of each of the app's rows, in the order of VENDORS. */
    private <T> List<T> perRow(String columns, RowReader<T> reader) {
        List<T> values = new ArrayList<>();
        for (Channel channel : VENDORS) {
            values.add(database.read(c -> {
                try (PreparedStatement ps = c.prepareStatement("select " + columns
                        + " from push_certificates where app_id = ? and provider = ?")) {
                    ps.setString(1, appId);
                    ps.setInt(2, channel.provider());
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return reader.read(rs);
                    }
                }
            }));
        }
        return values;
    }
}
