package io.imcore.message.send;

import io.imcore.common.api.ApiResponse;
import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.common.throttle.AppQuota;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * POST|PUT /message/notify (api.md 4.4): a system notification, admin token only. POST and PUT behave the same.
 * /message/send, its user-facing sibling, is a plain route ({@link SendRoute}).
 */
@Path("/message")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class NotifyResource {

    /** Per-app quota (docs/throttling.md): both forms of the call share it. */
    static final String NOTIFY_QUOTA = "message-notify";

    private final RequestContext caller;
    private final SendService sending;

    public NotifyResource(RequestContext caller, SendService sending) {
        this.caller = caller;
        this.sending = sending;
    }

    @POST
    @Path("/notify")
    @Access(Access.Level.ADMIN)
    @AppQuota(NOTIFY_QUOTA)
    public ApiResponse<Boolean> notify(SendRequest body) {
        return ApiResponse.ok(sending.notify(caller, body));
    }

    @PUT
    @Path("/notify")
    @Access(Access.Level.ADMIN)
    @AppQuota(NOTIFY_QUOTA)
    public ApiResponse<Boolean> notifyByPut(SendRequest body) {
        return notify(body);
    }
}
