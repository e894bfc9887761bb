package io.imcore.pushworker.certificate;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.pushcontract.CertificateTestSend;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Service-to-service: push-service's {@code POST /push/certificate/test} forwards here, where the channel adapters
 * are. Needs the services' internal-key; not routed by the gateway or the Ingress (docs/push-devices.md "Console
 * reads").
 * push-service validates and throttles per app; this checks only what it needs not to fail on.
 */
@Path(CertificateTestSend.WORKER_PATH)
@Access(Access.Level.INTERNAL)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CertificateTestResource {

    private final CertificateTestSender sender;

    public CertificateTestResource(CertificateTestSender sender) {
        this.sender = sender;
    }

    @POST
    public ApiResponse<CertificateTestSend.Answer> send(CertificateTestSend.Request request) {
        if (request == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (request.appId() == null || request.appId().isEmpty()) {
            throw ApiException.badParameter("app_id", "required");
        }
        if (request.environment() != 0 && request.environment() != 1) {
            throw ApiException.badParameter("environment", "must be 0 or 1");
        }
        if (request.deviceToken() == null || request.deviceToken().isEmpty()) {
            throw ApiException.badParameter("device_token", "required");
        }
        return ApiResponse.ok(sender.send(request));
    }
}
