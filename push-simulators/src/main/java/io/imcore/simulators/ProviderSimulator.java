package io.imcore.simulators;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A local server speaking one push provider's server protocol (for tests, the local stack and the benchmark).
 * Subclasses add the provider's routes; this class records every request, serves the control API under
 * {@code /_sim/} and holds the injected faults and the answer latency.
 *
 * <p>Control API (JSON): {@code GET /_sim/stats}, {@code GET /_sim/requests?limit=N} (each with
 * {@code received_at}, epoch ms), {@code GET /_sim/received?since=MS} (per chat message whose first accepted
 * notification came at or after MS: {@code msg_id}, {@code first} and {@code last} accepted, epoch ms, and
 * {@code deliveries}; see {@link Recorder#delivered(String, String)}),
 * {@code POST /_sim/faults {"kind":"transient|auth","count":N}}, {@code POST /_sim/latency {"millis":N}},
 * {@code POST /_sim/reset}, {@code POST /_sim/apps {"app_id","app_key","app_secret","certificate"}} (see
 * {@link #registerApp}).
 */
public abstract class ProviderSimulator {

    private final Recorder recorder = new Recorder();
    private final Faults faults = new Faults();
    private volatile long latencyMillis;
    private Vertx vertx;
    private HttpServer server;
    private volatile HttpClient callbackClient;

    /** The channel simulated, by its wire name (decisions.md section 5): ios, cloud, vendor_a .. vendor_e. */
    public abstract String channel();

    /** Adds the provider's protocol routes. Bodies are already read (BodyHandler). */
    protected abstract void routes(Router router);

    /**
     * Server options: plain HTTP by default. {@code workDir} is where a simulator may write files its clients need
     * (such as a generated TLS certificate to trust).
     */
    protected HttpServerOptions serverOptions(Path workDir) throws Exception {
        return new HttpServerOptions().setMaxFormAttributeSize(maxFormAttributeSize());
    }

    /**
     * The largest form body the server decodes (with the default {@link #serverOptions}). Vert.x's default, 8 KiB, is
     * enough for JSON protocols; the form-posting ones raise it, as a request for 1000 targets is far larger.
     */
    protected int maxFormAttributeSize() {
        return HttpServerOptions.DEFAULT_MAX_FORM_ATTRIBUTE_SIZE;
    }

    /**
     * Registers an app's credentials with our certificate fields (docs/push-certificates.md), also from
     * {@code POST /_sim/apps}: simulators that check credentials override it (an exception answers 400); by default
     * every app is accepted.
     */
    public void registerApp(String appId, String appKey, String appSecret, String certificate) throws Exception {}

    public final Future<Integer> start(Vertx vertx, String host, int port, Path workDir) {
        this.vertx = vertx;
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create().setBodyLimit(16L << 20));
        router.route().handler(this::record);
        router.get("/_sim/stats").handler(ctx -> json(ctx, 200, stats()));
        router.get("/_sim/requests").handler(this::requests);
        router.get("/_sim/received").handler(this::received);
        router.post("/_sim/faults").handler(ctx -> {
            JsonObject body = ctx.body().asJsonObject();
            faults.inject(Faults.Kind.valueOf(body.getString("kind").toUpperCase(Locale.ROOT)),
                    body.getInteger("count", 1));
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        router.post("/_sim/latency").handler(ctx -> {
            latencyMillis = ctx.body().asJsonObject().getLong("millis", 0L);
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        router.post("/_sim/reset").handler(ctx -> {
            reset();
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        routes(router);
        // after the provider's routes, so a simulator with its own /_sim/apps handler keeps it
        router.post("/_sim/apps").handler(ctx -> {
            JsonObject body = ctx.body().asJsonObject();
            try {
                registerApp(body.getString("app_id"), body.getString("app_key"), body.getString("app_secret"),
                        body.getString("certificate"));
                json(ctx, 200, new JsonObject().put("ok", true));
            } catch (Exception e) {
                json(ctx, 400, new JsonObject().put("error", String.valueOf(e.getMessage())));
            }
        });
        HttpServerOptions options;
        try {
            options = serverOptions(workDir);
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
        return vertx.createHttpServer(options.setHost(host).setPort(port))
                .requestHandler(router)
                .listen()
                .map(s -> {
                    server = s;
                    return s.actualPort();
                });
    }

    public int port() {
        return server.actualPort();
    }

    public Future<Void> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }

    public Recorder recorder() {
        return recorder;
    }

    public Faults faults() {
        return faults;
    }

    public void setLatencyMillis(long millis) {
        this.latencyMillis = millis;
    }

    public void reset() {
        recorder.reset();
        faults.reset();
        latencyMillis = 0;
    }

    protected Vertx vertx() {
        return vertx;
    }

    /** Runs {@code answer} after the configured latency (at once when it is 0), on the event loop. */
    protected void later(Runnable answer) {
        long millis = latencyMillis;
        if (millis <= 0) {
            answer.run();
        } else {
            vertx.setTimer(millis, id -> answer.run());
        }
    }

    /** Answers with a JSON body after the configured latency. */
    protected void reply(RoutingContext ctx, int status, JsonObject body) {
        later(() -> json(ctx, status, body));
    }

    /**
     * Posts a receipt callback to the app's server, fire and forget: a URL that cannot be called, or an endpoint
     * that is down, loses the receipt (the simulators never retry it).
     */
    protected void postCallback(String url, String contentType, String body) {
        HttpClient client = callbackClient;
        if (client == null) {
            synchronized (this) {
                if (callbackClient == null) {
                    callbackClient = vertx.createHttpClient();
                }
                client = callbackClient;
            }
        }
        RequestOptions options;
        try {
            options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url)
                    .putHeader("content-type", contentType);
        } catch (RuntimeException e) {
            return;
        }
        client.request(options)
                .compose(request -> request.send(Buffer.buffer(body)))
                .onSuccess(response -> response.body())
                .onFailure(e -> { /* lost, see above */ });
    }

    protected static void json(RoutingContext ctx, int status, Object body) {
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(body instanceof JsonObject o ? o.encode() : String.valueOf(body));
    }

    private JsonObject stats() {
        return new JsonObject()
                .put("channel", channel())
                .put("requests", recorder.requestCount())
                .put("deliveries", recorder.deliveries())
                .put("distinct_tokens", recorder.distinctTokens())
                .put("duplicates", recorder.deliveries() - recorder.distinctTokens());
    }

    private void record(RoutingContext ctx) {
        if (!ctx.request().path().startsWith("/_sim/")) {
            Map<String, String> headers = new LinkedHashMap<>();
            ctx.request().headers().forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
            String body = ctx.body() == null || ctx.body().buffer() == null ? "" : ctx.body().asString();
            recorder.request(new Recorder.Request(ctx.request().method().name(), ctx.request().uri(), headers, body));
        }
        ctx.next();
    }

    private void requests(RoutingContext ctx) {
        int limit = Integer.parseInt(ctx.queryParams().get("limit") == null ? "50" : ctx.queryParams().get("limit"));
        List<Recorder.Request> all = recorder.requests();
        JsonArray out = new JsonArray();
        for (Recorder.Request r : all.subList(Math.max(0, all.size() - limit), all.size())) {
            out.add(new JsonObject().put("method", r.method()).put("path", r.path())
                    .put("headers", new JsonObject(new LinkedHashMap<>(r.headers()))).put("body", r.body())
                    .put("received_at", r.receivedAt()));
        }
        json(ctx, 200, new JsonObject().put("requests", out));
    }

    private void received(RoutingContext ctx) {
        long since;
        try {
            String value = ctx.queryParams().get("since");
            since = value == null ? 0 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            json(ctx, 400, new JsonObject().put("error", "since must be epoch milliseconds"));
            return;
        }
        // built as text: a benchmark phase reads tens of thousands of entries
        StringBuilder out = new StringBuilder(64 * 1024).append("{\"channel\":\"").append(channel())
                .append("\",\"not_kept\":").append(recorder.messagesNotKept()).append(",\"messages\":[");
        boolean first = true;
        for (Recorder.Received r : recorder.received(since)) {
            out.append(first ? "" : ",").append("{\"msg_id\":\"").append(r.msgId()).append("\",\"first\":")
                    .append(r.firstMillis()).append(",\"last\":").append(r.lastMillis()).append(",\"deliveries\":")
                    .append(r.deliveries()).append('}');
            first = false;
        }
        json(ctx, 200, out.append("]}").toString());
    }
}
