package io.imcore.push.task;

import io.imcore.common.context.TokenAuthenticator;
import io.imcore.common.throttle.AppQuotas;
import io.imcore.common.throttle.QuotaOperatorResource;
import io.imcore.push.certificate.CertificateTester;
import jakarta.ws.rs.Path;
import java.util.List;

/**
 * The operator's per-app overrides of the /push/notify and /push/certificate/test quotas: GET, PUT, DELETE
 * /push/quota (docs/throttling.md).
 */
@Path("/push/quota")
public class PushQuotaResource extends QuotaOperatorResource {

    public PushQuotaResource(AppQuotas quotas, TokenAuthenticator apps) {
        super(quotas, apps, List.of(PushResource.NOTIFY_QUOTA, CertificateTester.QUOTA));
    }
}
