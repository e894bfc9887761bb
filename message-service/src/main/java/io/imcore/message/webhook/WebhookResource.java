package io.imcore.message.webhook;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ApiResponse;
import io.imcore.common.api.QueryParams;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;

/**
 * An app's webhook (docs/webhooks.md), admin token only: POST /app/webhook saves the settings and answers a new
 * secret, GET reads them (secret masked); the delivery log and "send again". The gateway routes /app/webhook here
 * (deploy/gateway/routes.tsv), the rest of /app/ to auth-service.
 */
@Path("/app/webhook")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Access(Access.Level.ADMIN)
public class WebhookResource {

    /** A delivery to send again. */
    public record Resend(Long id) {}

    private final RequestContext caller;
    private final WebhookService webhooks;

    public WebhookResource(RequestContext caller, WebhookService webhooks) {
        this.caller = caller;
        this.webhooks = webhooks;
    }

    @POST
    public ApiResponse<Map<String, String>> save(WebhookSettings body) {
        return ApiResponse.ok(Map.of("secret", webhooks.save(caller.appId(), body)));
    }

    /** data null when the app has no webhook. */
    @GET
    public ApiResponse<WebhookView> read() {
        return ApiResponse.ok(webhooks.read(caller.appId()));
    }

    /** The app's deliveries, newest first, {@code limit} (1..100, default 20) older than {@code before_id}. */
    @GET
    @Path("/deliveries")
    public ApiResponse<List<DeliveryStore.LogEntry>> deliveries(@QueryParam("before_id") String beforeId,
            @QueryParam("limit") String limit) {
        return ApiResponse.ok(webhooks.log(caller.appId(),
                QueryParams.optionalLong("before_id", beforeId, 0, 0, Long.MAX_VALUE),
                (int) QueryParams.optionalLong("limit", limit, 20, 1, WebhookService.MAX_LOG_PAGE)));
    }

    @POST
    @Path("/deliveries/resend")
    public ApiResponse<Boolean> resend(Resend body) {
        if (body == null || body.id() == null) {
            throw ApiException.badParameter("id", "required");
        }
        return ApiResponse.ok(webhooks.resend(caller.appId(), body.id()));
    }
}
