package io.imcore.message.send;

import io.imcore.common.context.Access;
import io.imcore.common.context.RequestContext;
import io.imcore.common.route.PlainRoutes;
import io.imcore.message.send.SendService.Operation;
import io.imcore.message.send.request.SendRequest;
import io.imcore.throttle.AppQuotas;
import io.imcore.throttle.UserQuotas;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * POST|PUT /message/send (api.md 4.4): the hottest call of the service, served as a plain route
 * ({@link PlainRoutes}), with the contract of the JAX-RS resources. /message/notify, its admin-only sibling, is a
 * resource ({@link NotifyResource}); both answer with {@link SendService#send}'s future.
 */
@ApplicationScoped
public class SendRoute {

    /** Per-app quota (docs/throttling.md): both forms of the call share it; a call costs its targets. */
    static final String SEND_QUOTA = "message-send";
    /** Per-user quota: each user's share of the app's, so that one user cannot use it up. */
    static final String SEND_QUOTA_PER_USER = "message-send-per-user";

    private final PlainRoutes routes;
    private final SendService sending;
    private final AppQuotas appQuotas;
    private final UserQuotas userQuotas;
    private final Timer sendTime;

    public SendRoute(PlainRoutes routes, SendService sending, AppQuotas appQuotas, UserQuotas userQuotas,
            MeterRegistry registry) {
        this.routes = routes;
        this.sending = sending;
        this.appQuotas = appQuotas;
        this.userQuotas = userQuotas;
        this.sendTime = Timer.builder("imcore.messages.send.service")
                .description("a send in the service: its checks, the committer's wait and transaction")
                .register(registry);
    }

    void install(@Observes Router router) {
        routes.serve(router, "/message/send", Access.Level.USER,
                List.of(this::takeUserQuota, this::takeAppQuota),
                SendRequest.class, (caller, body) -> sending.send(Operation.SEND, caller, body), sendTime,
                HttpMethod.POST, HttpMethod.PUT);
    }

    /** A call costs its targets from its sender's share (none when an admin names no sender: refused later). */
    private void takeUserQuota(String path, RequestContext caller, SendRequest body) {
        Long payer = sender(caller, body);
        if (payer != null) {
            userQuotas.consume(SEND_QUOTA_PER_USER, path, caller.appId(), payer, SendRequest.units(body));
        }
    }

    private void takeAppQuota(String path, RequestContext caller, SendRequest body) {
        appQuotas.consume(SEND_QUOTA, path, caller.appId(), SendRequest.units(body));
    }

    /**
     * The user a send counts for: the token's, or for an admin acting as a user that user (from_user_id, else the
     * user_id header); null when an admin names none (refused with 10002 by the send's checks).
     */
    private static Long sender(RequestContext caller, SendRequest body) {
        if (!caller.isAdmin()) {
            return caller.token().userId();
        }
        return body != null && body.fromUserId() != null ? body.fromUserId() : caller.userIdOrNull();
    }
}
