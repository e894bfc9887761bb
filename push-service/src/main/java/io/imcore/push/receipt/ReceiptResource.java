package io.imcore.push.receipt;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * Providers' delivery-receipt callbacks: {@code POST /push/receipt/<channel>/<app_id>?key=<the app's receipt key>},
 * the URL push-worker's adapters give the providers and the app's admin enters in a provider's console
 * (docs/push-worker.md "received"). A provider sends no token, so the app's key in the URL is what authenticates it.
 * data is how many receipts counted (repeats, unknown tokens and devices the task was not sent to count nothing).
 */
@Path("/push/receipt/{channel}/{app_id}")
@Access(Access.Level.CALLBACK)
@Produces(MediaType.APPLICATION_JSON)
public class ReceiptResource {

    private final ReceiptService receipts;

    public ReceiptResource(ReceiptService receipts) {
        this.receipts = receipts;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public ApiResponse<Integer> receive(@PathParam("channel") String channel, @PathParam("app_id") String appId,
            @QueryParam("key") String key, @HeaderParam("content-type") String contentType, String body) {
        return ApiResponse.ok(receipts.count(channel, appId, key, contentType, body));
    }
}
