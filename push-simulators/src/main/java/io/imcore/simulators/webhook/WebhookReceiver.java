package io.imcore.simulators.webhook;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An app's webhook endpoint for trying webhooks on the local stack (docs/webhooks.md "Trying it"): it logs every
 * event that arrives and verifies its signature with the Standard Webhooks reference library, under the secret it was
 * given ({@code POST /_sim/secret {"secret"}}: deploy/local/up.sh gives it the demo app's). Any other path receives
 * events; a {@code message.before_send} is allowed, after {@code delay_ms} (query parameter of the URL the app was
 * given, for the benchmark's 5 ms hook). {@code GET /_sim/received?type=T} lists the last events, newest last, each
 * with {@code webhook_id}, {@code type}, {@code verified} and {@code body}.
 */
public final class WebhookReceiver {

    private static final int KEPT = 1_000;

    /** One event as it arrived. */
    private record Arrived(String id, String type, boolean verified, String body, long receivedAt) {}

    private final Deque<Arrived> arrived = new ArrayDeque<>();
    private volatile Webhook verifier;
    private HttpServer server;

    public Future<Integer> start(Vertx vertx, String host, int port) {
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create().setBodyLimit(4L << 20));
        router.post("/_sim/secret").handler(ctx -> {
            String secret = ctx.body().asJsonObject().getString("secret");
            verifier = new Webhook(secret);
            ctx.response().putHeader("Content-Type", "application/json").end("{\"ok\":true}");
        });
        router.get("/_sim/received").handler(this::received);
        router.route().handler(this::receive);
        server = vertx.createHttpServer();
        return server.requestHandler(router).listen(port, host).map(HttpServer::actualPort);
    }

    public int port() {
        return server.actualPort();
    }

    private void receive(RoutingContext ctx) {
        String body = ctx.body().asString();
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        ctx.request().headers().forEach(h -> headers.computeIfAbsent(h.getKey(), k -> new ArrayList<>()).add(h.getValue()));
        String type;
        try {
            type = new JsonObject(body == null ? "{}" : body).getString("type");
        } catch (RuntimeException notJson) {
            type = null;
        }
        boolean verified = verified(body, headers);
        String id = ctx.request().getHeader("webhook-id");
        System.out.printf("webhook %s id=%s signature=%s %s%n", type, id, verified ? "verified" : "NOT VERIFIED",
                body == null || body.length() <= 300 ? body : body.substring(0, 300) + "...");
        synchronized (arrived) {
            arrived.addLast(new Arrived(id, type, verified, body, System.currentTimeMillis()));
            if (arrived.size() > KEPT) {
                arrived.removeFirst();
            }
        }
        String answer = "message.before_send".equals(type) ? "{\"action\":\"allow\"}" : "{}";
        long delay = delayMillis(ctx);
        if (delay > 0) {
            ctx.vertx().setTimer(delay, t -> answer(ctx, verified, answer));
        } else {
            answer(ctx, verified, answer);
        }
    }

    /** A request whose signature does not verify is answered 401, as a receiver should. */
    private static void answer(RoutingContext ctx, boolean verified, String answer) {
        ctx.response().setStatusCode(verified ? 200 : 401).putHeader("Content-Type", "application/json")
                .end(verified ? answer : "{\"error\":\"signature\"}");
    }

    private boolean verified(String body, Map<String, List<String>> headers) {
        Webhook current = verifier;
        if (current == null || body == null) {
            return false;
        }
        try {
            current.verify(body, headers);
            return true;
        } catch (WebhookVerificationException e) {
            return false;
        }
    }

    private static long delayMillis(RoutingContext ctx) {
        try {
            String delay = ctx.request().getParam("delay_ms");
            return delay == null ? 0 : Long.parseLong(delay);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void received(RoutingContext ctx) {
        String type = ctx.request().getParam("type");
        JsonArray list = new JsonArray();
        synchronized (arrived) {
            for (Arrived event : arrived) {
                if (type == null || type.equals(event.type())) {
                    list.add(new JsonObject().put("webhook_id", event.id()).put("type", event.type())
                            .put("verified", event.verified()).put("received_at", event.receivedAt())
                            .put("body", event.body()));
                }
            }
        }
        ctx.response().putHeader("Content-Type", "application/json").end(list.encode());
    }
}
