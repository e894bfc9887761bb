package io.imcore.push.receipt;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.ReceiptCallback;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The app's receipt key (docs/api-decisions.md "Receipt keys"): admin only, since the answer is the secret that
 * authenticates the app's providers' delivery callbacks. The first read makes it; a rotation replaces it at once.
 */
@Path("/push/receipt_key")
@Access(Access.Level.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class ReceiptKeyResource {

    private final RequestContext caller;
    private final ReceiptKeyStore keys;
    private final ReceiptFormats formats;
    private final String baseUrl;

    public ReceiptKeyResource(RequestContext caller, ReceiptKeyStore keys, ReceiptFormats formats,
            @ConfigProperty(name = "im.push.receipt-base-url") Optional<String> baseUrl) {
        this.caller = caller;
        this.keys = keys;
        this.formats = formats;
        this.baseUrl = baseUrl.orElse("");
    }

    @GET
    public ApiResponse<ReceiptKeyView> find() {
        return ApiResponse.ok(view(keys.getOrCreate(caller.appId())));
    }

    @POST
    @Path("rotate")
    public ApiResponse<ReceiptKeyView> rotate() {
        return ApiResponse.ok(view(keys.rotate(caller.appId())));
    }

    private ReceiptKeyView view(String key) {
        Map<String, String> callbacks = new LinkedHashMap<>();
        for (Channel channel : Channel.values()) {
            if (formats.of(channel).isPresent()) {
                String endpoint = baseUrl.replaceAll("/+$", "") + "/push/receipt/" + channel.wireName();
                callbacks.put(channel.wireName(), ReceiptCallback.url(endpoint, caller.appId(), key).toString());
            }
        }
        return new ReceiptKeyView(key, callbacks);
    }
}
