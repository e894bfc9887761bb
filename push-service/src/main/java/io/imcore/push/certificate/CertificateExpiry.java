package io.imcore.push.certificate;

import io.imcore.common.concurrent.ThrottledRead;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * When a certificate-based credential stops working. An APNs certificate (PKCS#12) carries an X.509 notAfter, after
 * which Apple refuses every push of the app; a .p8 key, a service account and the phone makers' app secrets do not
 * expire. The expiry is stored with the certificate (push_certificates.expires_at, set on upload and, for rows
 * uploaded before the column existed, at startup), shown by GET /push/certificate, and its earliest is the metric
 * {@code imcore_push_certificate_earliest_expiry_seconds} behind the ImcoreCertificateExpiring alert.
 */
@ApplicationScoped
public class CertificateExpiry {

    private static final Logger LOG = Logger.getLogger(CertificateExpiry.class);

    private final CertificateStore certificates;
    private final Database database;
    /** Read at most once a minute, whatever the number of scrapes. */
    private final ThrottledRead<Double> earliest;

    public CertificateExpiry(CertificateStore certificates, Database database) {
        this.certificates = certificates;
        this.database = database;
        this.earliest = new ThrottledRead<>("earliest certificate expiry", Duration.ofMinutes(1),
                this::readEarliestSeconds);
    }

    /** The certificate's notAfter, for an APNs PKCS#12 certificate that opens with its password; else empty. */
    static Optional<Instant> notAfter(Certificate certificate) {
        if (certificate.channel() != Channel.APNS || certificate.certificate().strip().startsWith("-----BEGIN")) {
            return Optional.empty();
        }
        try {
            KeyStore store = ProviderFields.pkcs12(certificate.certificate(), certificate.appSecret());
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias) && store.getCertificate(alias) instanceof X509Certificate x509) {
                    return Optional.of(x509.getNotAfter().toInstant());
                }
            }
        } catch (IOException | IllegalArgumentException | GeneralSecurityException e) {
            // not readable: the upload's own check (ProviderFields) refuses such a certificate
        }
        return Optional.empty();
    }

    void start(@Observes StartupEvent event, MeterRegistry registry) {
        Gauge.builder("imcore.push.certificate.earliest.expiry", this, CertificateExpiry::earliestSeconds)
                .baseUnit("seconds").description("time left until the earliest certificate expiry; NaN when none expires")
                .register(registry);
        try {
            backfill();
        } catch (RuntimeException e) {
            // the database may not be up yet: the service starts (not ready) and the next start fills them in
            LOG.warnf("certificate expiry not filled in for earlier uploads: %s", e.getMessage());
        }
    }

    /** Sets expires_at of APNs certificates uploaded before the column existed (once: p8 keys stay null, cheaply). */
    private void backfill() {
        List<PushCertificate.Key> keys = QuarkusTransaction.joiningExisting().call(() -> certificates
                .list("provider = ?1 and expiresAt is null", Channel.APNS.provider()).stream()
                .map(row -> new PushCertificate.Key(row.appId, row.provider, row.environment)).toList());
        int set = 0;
        for (PushCertificate.Key key : keys) {
            Optional<Instant> expiry = certificates.find(key.appId, Channel.APNS, key.environment)
                    .flatMap(CertificateExpiry::notAfter);
            if (expiry.isPresent()) {
                QuarkusTransaction.joiningExisting().run(() -> certificates.findById(key).expiresAt = expiry.get());
                set++;
            }
        }
        if (set > 0) {
            LOG.infof("certificate expiry set on %d APNs certificates uploaded before it was stored", set);
        }
    }

    private double earliestSeconds() {
        return earliest.get().orElse(Double.NaN);
    }

    private double readEarliestSeconds() {
        return database.read(c -> {
            try (PreparedStatement earliest = c.prepareStatement("select extract(epoch from min(expires_at) - now())"
                    + " from push_certificates where expires_at is not null");
                    ResultSet rs = earliest.executeQuery()) {
                rs.next();
                double seconds = rs.getDouble(1);
                return rs.wasNull() ? Double.NaN : seconds;
            }
        });
    }
}
