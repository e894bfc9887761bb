package io.imcore.push.task;

import io.imcore.common.context.TokenAuthenticator;
import io.imcore.push.certificate.CertificateTester;
import io.imcore.throttle.AppQuotas;
import io.imcore.throttle.QuotaOperatorResource;
import jakarta.ws.rs.Path;
import java.util.List;

/**
 * The operator's per-app overrides of the /push/notify, /push/certificate/test and /push/audience/count quotas: GET,
 * PUT, DELETE /push/quota (docs/throttling.md).
 */
@Path("/push/quota")
public class PushQuotaResource extends QuotaOperatorResource {

    /**
     * The per-app quota of POST /push/audience/count (fanout.AudienceCountResource; named here, where the fanout
     * package may look, not the other way round): a count of a large audience reads every one of its devices.
     */
    public static final String AUDIENCE_COUNT_QUOTA = "push-audience-count";

    public PushQuotaResource(AppQuotas quotas, TokenAuthenticator apps) {
        super(quotas, apps, List.of(PushResource.NOTIFY_QUOTA, CertificateTester.QUOTA, AUDIENCE_COUNT_QUOTA));
    }
}
