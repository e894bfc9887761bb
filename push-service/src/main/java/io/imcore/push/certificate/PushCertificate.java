package io.imcore.push.certificate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * An app's provider credentials for one provider and environment ({@code push_certificates}). The two secrets are
 * stored sealed (common's CertificateSecrets, bound to the row and column): the entity holds the ciphertext bytes.
 */
@Entity
@Table(name = "push_certificates")
@IdClass(PushCertificate.Key.class)
public class PushCertificate {

    @Id
    public String appId;

    /** The provider number (1..7, api.md 4.5.1; common's Channel). */
    @Id
    @JdbcTypeCode(SqlTypes.SMALLINT)
    public Integer provider;

    /** 0 development, 1 production. */
    @Id
    @JdbcTypeCode(SqlTypes.SMALLINT)
    public Integer environment;

    /** Unique within the app: what a token binding's notifier_name refers to. */
    public String name;

    public String providerAppId;

    public String appKey;

    public byte[] appSecretEnc;

    public byte[] certificateEnc;

    /** A JSON object: the app's default message options for the provider (docs/push-certificates.md). */
    @JdbcTypeCode(SqlTypes.JSON)
    public String messageDefaults;

    public Instant updatedAt;

    /** The certificate's notAfter, for credentials that carry one (APNs PKCS#12); null otherwise. */
    public Instant expiresAt;

    public static class Key implements Serializable {
        public String appId;
        public Integer provider;
        public Integer environment;

        public Key() {
        }

        public Key(String appId, Integer provider, Integer environment) {
            this.appId = appId;
            this.provider = provider;
            this.environment = environment;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(appId, k.appId) && Objects.equals(provider, k.provider)
                    && Objects.equals(environment, k.environment);
        }

        @Override
        public int hashCode() {
            return Objects.hash(appId, provider, environment);
        }
    }
}
