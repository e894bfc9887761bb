package io.imcore.pushcontract;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The wire format between push-service's {@code POST /push/certificate/test} and push-worker's internal endpoint
 * {@value #WORKER_PATH} (docs/push-devices.md "Console reads"): push-service validates and throttles, push-worker
 * holds the channel adapters and sends the one notification.
 */
public final class CertificateTestSend {

    /** push-worker's endpoint: platform key only, not routed by the gateway or the Ingress. */
    public static final String WORKER_PATH = "/internal/push/certificate-test";

    private CertificateTestSend() {}

    /**
     * What push-service forwards, already checked: provider 1..7 (api.md 4.5.1), environment 0 or 1, a token, and
     * the texts to show (defaults filled in).
     */
    @RegisterForReflection
    public record Request(String appId, int provider, int environment, String deviceToken, String title,
            String body) {}

    /**
     * The provider's answer to the one send.
     *
     * @param outcome         {@code sent}, {@code rejected} (the provider refused the token for good) or {@code failed}
     *                        (anything else: a transient error is not retried here)
     * @param reason          the adapter's classification (the provider's error code and text), null when sent
     * @param providerStatus  the HTTP status of the provider's last answer, null when no answer was recorded (no call
     *                        was made, or the channel's client does not record it: ios, cloud)
     * @param providerCode    the answer's own result code ({@code code}, else {@code result}) when its body is JSON
     * @param providerMessage the answer's body, cut to 1024 characters
     * @param elapsedMs       time spent in the adapter, in milliseconds
     */
    @RegisterForReflection
    public record Answer(String outcome, String reason, Integer providerStatus, String providerCode,
            String providerMessage, long elapsedMs) {}
}
