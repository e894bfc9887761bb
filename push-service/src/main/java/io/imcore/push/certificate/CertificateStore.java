package io.imcore.push.certificate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.push.app.TransactionLocks;
import io.imcore.pushcontract.CertificateSecrets.Column;
import io.imcore.pushcontract.CertificateSecrets;
import io.imcore.pushcontract.Channel;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.Optional;

/**
 * Certificates ({@code push_certificates}) as {@link PushCertificate} entities, this class their Panache repository:
 * app_secret and certificate are sealed by {@link CertificateSecrets} with the current certificate key, each bound to
 * its row and column, and stored as the entity's ciphertext bytes. Callers see them opened, as {@link Certificate}.
 */
@Startup // a missing or malformed key set stops the service at startup, not at the first certificate call
@ApplicationScoped
public class CertificateStore implements PanacheRepositoryBase<PushCertificate, PushCertificate.Key> {

    private final TransactionLocks locks;
    private final CertificateSecrets secrets;
    private final ObjectMapper json;

    public CertificateStore(TransactionLocks locks, CertificateSecrets secrets, ObjectMapper json) {
        this.locks = locks;
        this.secrets = secrets;
        this.json = json;
    }

    /**
     * Inserts or replaces the app's certificate for the channel and environment. A name already used by another
     * provider or environment of the app fails here, on the unique key (app_id, name), and rolls back.
     */
    @Transactional
    public void upsert(String appId, Certificate certificate) {
        int provider = certificate.channel().provider();
        int environment = certificate.environment();
        // two first uploads for one key at once would both insert: the second waits here and then finds the row
        locks.acquire("push_certificates:" + appId + ":" + provider + ":" + environment);
        PushCertificate row = findById(new PushCertificate.Key(appId, provider, environment));
        boolean first = row == null;
        if (first) {
            row = new PushCertificate();
            row.appId = appId;
            row.provider = provider;
            row.environment = environment;
        }
        row.name = certificate.name();
        row.providerAppId = certificate.appId();
        row.appKey = certificate.appKey();
        row.appSecretEnc = secrets.seal(certificate.appSecret(), appId, provider, environment, Column.APP_SECRET);
        row.certificateEnc = secrets.seal(certificate.certificate(), appId, provider, environment, Column.CERTIFICATE);
        row.messageDefaults = certificate.messageDefaults().toString();
        row.updatedAt = Instant.now();
        row.expiresAt = CertificateExpiry.notAfter(certificate).orElse(null);
        if (first) {
            persist(row);
        }
        flush(); // the unique name is checked now, inside the caller's try
    }

    /** The app's credentials for the channel and environment, decrypted (what an adapter signs its calls with). */
    @Transactional
    public Optional<Certificate> find(String appId, Channel channel, int environment) {
        int provider = channel.provider();
        return findByIdOptional(new PushCertificate.Key(appId, provider, environment))
                .map(row -> new Certificate(channel, environment, row.name, row.providerAppId, row.appKey,
                        secrets.open(row.appSecretEnc, appId, provider, environment, Column.APP_SECRET),
                        secrets.open(row.certificateEnc, appId, provider, environment, Column.CERTIFICATE),
                        messageDefaults(row.messageDefaults)));
    }

    /** The stored message_defaults: a JSON object, as only MessageOptions.ofDefaults output is written. */
    private ObjectNode messageDefaults(String stored) {
        try {
            return (ObjectNode) json.readTree(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("push_certificates.message_defaults is not JSON", e);
        }
    }

    /** Which channel and environment the app's certificate of this name is for (a token binding's notifier_name). */
    @Transactional
    public Optional<CertificateRef> findByName(String appId, String name) {
        return find("appId = ?1 and name = ?2", appId, name).firstResultOptional()
                .flatMap(row -> Channel.fromProvider(row.provider)
                        .map(channel -> new CertificateRef(channel, row.environment, name)));
    }
}
