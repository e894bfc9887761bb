package io.imcore.push.certificate;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.pushcontract.CertificateTestSend;
import io.imcore.throttle.AppQuota;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Push certificates (api.md 4.5.1, decisions.md section 5): admin only, since reading returns the secrets. */
@Path("/push/certificate")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class CertificateResource {

    private final RequestContext caller;
    private final CertificateService certificates;
    private final CertificateTester tester;

    public CertificateResource(RequestContext caller, CertificateService certificates, CertificateTester tester) {
        this.caller = caller;
        this.certificates = certificates;
        this.tester = tester;
    }

    @POST
    public ApiResponse<Boolean> upsert(CertificateRequest body) {
        return ApiResponse.ok(certificates.upsert(caller.appId(), body));
    }

    /** data is null when the app has no certificate for the provider and environment. */
    @GET
    public ApiResponse<CertificateView> find(@QueryParam("provider") String provider,
            @QueryParam("environment") String environment) {
        return ApiResponse.ok(certificates.find(caller.appId(), provider, environment));
    }

    /** One notification to a device token with the app's certificate: the provider's answer (issue 16's test send). */
    @POST
    @Path("test")
    @AppQuota(CertificateTester.QUOTA)
    public ApiResponse<CertificateTestSend.Answer> test(CertificateTestRequest body) {
        return ApiResponse.ok(tester.test(caller.appId(), body));
    }
}
