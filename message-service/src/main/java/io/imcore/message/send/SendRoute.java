package io.imcore.message.send;

import io.imcore.common.context.Access;
import io.imcore.message.send.SendService.Operation;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * POST|PUT /message/send (api.md 4.4): the hottest call of the service, served as a plain route
 * ({@link PlainRoutes}), with the contract of the JAX-RS resources. /message/notify, its admin-only sibling, is a
 * resource ({@link NotifyResource}); both answer with {@link SendService#send}'s future.
 */
@ApplicationScoped
public class SendRoute {

    /** Per-app quota (docs/throttling.md): both forms of the call share it. */
    static final String SEND_QUOTA = "message-send";

    private final PlainRoutes routes;
    private final SendService sending;
    private final Timer sendTime;

    public SendRoute(PlainRoutes routes, SendService sending, MeterRegistry registry) {
        this.routes = routes;
        this.sending = sending;
        this.sendTime = Timer.builder("imcore.messages.send.service")
                .description("a send in the service: its checks, the committer's wait and transaction")
                .register(registry);
    }

    void install(@Observes Router router) {
        routes.serve(router, "/message/send", Access.Level.USER, SEND_QUOTA, SendRequest.class,
                (caller, body) -> sending.send(Operation.SEND, caller, body), sendTime, HttpMethod.POST,
                HttpMethod.PUT);
    }
}
