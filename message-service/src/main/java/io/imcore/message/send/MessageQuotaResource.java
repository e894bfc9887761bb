package io.imcore.message.send;

import io.imcore.common.context.TokenAuthenticator;
import io.imcore.message.file.FileResource;
import io.imcore.throttle.AppQuotas;
import io.imcore.throttle.QuotaOperatorResource;
import jakarta.ws.rs.Path;
import java.util.List;

/** The operator's per-app overrides of the message quotas: GET, PUT, DELETE /message/quota (docs/throttling.md). */
@Path("/message/quota")
public class MessageQuotaResource extends QuotaOperatorResource {

    public MessageQuotaResource(AppQuotas quotas, TokenAuthenticator apps) {
        super(quotas, apps, List.of(SendRoute.SEND_QUOTA, SendRoute.SEND_QUOTA_PER_USER,
                NotifyResource.NOTIFY_QUOTA, FileResource.QUOTA));
    }
}
