package io.imcore.push.certificate;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Push certificate as {@code GET /push/certificate} returns it: api.md 2.7, secrets decrypted, plus
 * {@code message_defaults} (an addition, docs/push-certificates.md).
 */
@RegisterForReflection
@JsonPropertyOrder({"app_id", "app_key", "app_secret", "certificate", "name", "message_defaults"})
public record CertificateView(String appId, String appKey, String appSecret, String certificate, String name,
        ObjectNode messageDefaults) {

    static CertificateView of(Certificate certificate) {
        return new CertificateView(certificate.appId(), certificate.appKey(), certificate.appSecret(),
                certificate.certificate(), certificate.name(), certificate.messageDefaults());
    }
}
