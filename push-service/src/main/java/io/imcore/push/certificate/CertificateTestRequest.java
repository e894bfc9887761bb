package io.imcore.push.certificate;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Body of {@code POST /push/certificate/test} (docs/push-devices.md "Console reads").
 *
 * @param provider    1..7 as api.md 4.5.1, as for the certificate endpoints
 * @param environment 0 development, 1 production; 1 when absent
 * @param title       optional, "Test" when absent
 * @param body        optional, a fixed text when absent
 */
@RegisterForReflection
public record CertificateTestRequest(Integer provider, Integer environment, String deviceToken, String title,
        String body) {}
