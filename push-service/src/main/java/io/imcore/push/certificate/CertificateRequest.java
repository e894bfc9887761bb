package io.imcore.push.certificate;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Body of {@code POST /push/certificate} (decisions.md section 5); what each field means per provider is in
 * docs/push-certificates.md.
 *
 * @param provider     1..7 as api.md 4.5.1
 * @param environment  0 development, 1 production; 1 when absent
 * @param messageDefaults the app's default message options for the provider, as sent (checked by the service)
 */
@RegisterForReflection
public record CertificateRequest(Integer provider, Integer environment, String name, String appId, String appKey,
        String appSecret, String certificate, JsonNode messageDefaults) {}
