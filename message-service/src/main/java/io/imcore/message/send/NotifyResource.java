package io.imcore.message.send;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.message.send.SendService.Operation;
import io.imcore.message.send.request.SendRequest;
import io.imcore.throttle.AppQuotas;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.CompletionStage;

/**
 * POST|PUT /message/notify (api.md 4.4): a system notification, admin token only; POST and PUT behave the same.
 * /message/send, its user-facing sibling, is a plain route ({@link SendRoute}); both answer with
 * {@link SendService#send}'s future. The checks run on a worker thread ({@link Blocking}: they may query); the
 * answer is written when the commit completes the future, and no thread waits for it meanwhile.
 */
@Path("/message")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class NotifyResource {

    /** Per-app quota (docs/throttling.md): both forms of the call share it; a call costs its targets. */
    static final String NOTIFY_QUOTA = "message-notify";

    private final RequestContext caller;
    private final SendService sending;
    private final AppQuotas quotas;

    public NotifyResource(RequestContext caller, SendService sending, AppQuotas quotas) {
        this.caller = caller;
        this.sending = sending;
        this.quotas = quotas;
    }

    @POST
    @Path("/notify")
    @Access(Access.Level.ADMIN)
    @Blocking
    public CompletionStage<ApiResponse<Boolean>> notify(SendRequest body) {
        quotas.consume(NOTIFY_QUOTA, "/message/notify", caller.appId(), SendRequest.units(body));
        return sending.send(Operation.NOTIFY, caller, body).thenApply(ApiResponse::ok);
    }

    @PUT
    @Path("/notify")
    @Access(Access.Level.ADMIN)
    @Blocking
    public CompletionStage<ApiResponse<Boolean>> notifyByPut(SendRequest body) {
        return notify(body);
    }
}
