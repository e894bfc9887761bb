package io.imcore.push.certificate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;

/**
 * Push certificate as {@code GET /push/certificate} returns it: api.md 2.7, secrets decrypted, plus
 * {@code message_defaults} and, for a credential that expires (an APNs PKCS#12 certificate), {@code expires_at} in
 * epoch seconds (additions, docs/push-certificates.md).
 */
@RegisterForReflection
@JsonPropertyOrder({"app_id", "app_key", "app_secret", "certificate", "name", "message_defaults", "expires_at"})
public record CertificateView(String appId, String appKey, String appSecret, String certificate, String name,
        ObjectNode messageDefaults, @JsonInclude(JsonInclude.Include.NON_NULL) Long expiresAt) {

    static CertificateView of(Certificate certificate) {
        return new CertificateView(certificate.appId(), certificate.appKey(), certificate.appSecret(),
                certificate.certificate(), certificate.name(), certificate.messageDefaults(),
                CertificateExpiry.notAfter(certificate).map(Instant::getEpochSecond).orElse(null));
    }
}
