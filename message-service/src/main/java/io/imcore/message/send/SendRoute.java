package io.imcore.message.send;

import io.imcore.common.context.Access;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * POST|PUT /message/send (api.md 4.4): the hottest call of the service, served as a plain route
 * ({@link PlainRoutes}), with the contract of the JAX-RS resources. /message/notify, its admin-only sibling, is a
 * resource ({@link NotifyResource}).
 */
@ApplicationScoped
public class SendRoute {

    /** Per-app quota (docs/throttling.md): both forms of the call share it. */
    static final String SEND_QUOTA = "message-send";

    private final PlainRoutes routes;
    private final SendService sending;

    public SendRoute(PlainRoutes routes, SendService sending) {
        this.routes = routes;
        this.sending = sending;
    }

    void install(@Observes Router router) {
        routes.serve(router, "/message/send", Access.Level.USER, SEND_QUOTA, SendRequest.class, sending::send,
                HttpMethod.POST, HttpMethod.PUT);
    }
}
