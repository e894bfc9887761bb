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
 * Providers' delivery-receipt callbacks: {@code POST /push/receipt/<channel>?key=<im.push.receipt-key>}, the URL
 * push-worker's adapters give the providers (docs/push-worker.md). A provider sends no token, so the key in the URL
 * is what authenticates it. data is how many receipts counted (repeats and unknown tokens count nothing).
 */
@Path("/push/receipt/{channel}")
@Access(Access.Level.CALLBACK)
@Produces(MediaType.APPLICATION_JSON)
public class ReceiptResource {

    private final ReceiptService receipts;

    public ReceiptResource(ReceiptService receipts) {
        this.receipts = receipts;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public ApiResponse<Integer> receive(@PathParam("channel") String channel, @QueryParam("key") String key,
            @HeaderParam("content-type") String contentType, String body) {
        return ApiResponse.ok(receipts.count(channel, key, contentType, body));
    }
}
