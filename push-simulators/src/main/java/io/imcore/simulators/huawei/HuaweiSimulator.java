package io.imcore.simulators.huawei;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Huawei Push Kit. {@code POST /oauth2/v3/token} (client credentials) issues Bearer tokens valid 3600 s;
 * {@code POST /v1/{appId}/messages:send} takes 1..1000 tokens and answers 80000000, 80100000 with the illegal tokens,
 * 80300007 when all are invalid, 80200001/80200003 for a missing, foreign or expired token; the message itself must pass
 * Huawei's published rules ({@link MessageRules}). Delivery receipts (the
 * AppGallery Connect receipt configuration) go to the URL set with {@link #setReceiptUrl} or
 * {@code POST /_sim/receipt {"url"}}, for messages with a {@code bi_tag}, merged as Huawei merges them: the statuses of
 * many sends in one callback, at most {@value #STATUSES_PER_RECEIPT} each ("A single receipt can contain 100 statuses
 * structures", https://developer.huawei.com/consumer/en/doc/HMSCore-References-V5/https-send-receipt-api-0000001051066120-V5;
 * "回执会对结果消息合并", https://developer.huawei.com/consumer/cn/doc/HMS-References/push-receiptapi), posted every
 * {@value #RECEIPT_FLUSH_MILLIS} ms. {@link #forbidApp} ({@code POST /_sim/forbid {"app_id"}}) makes an app's sends
 * refused.
 */
public class HuaweiSimulator extends ProviderSimulator {

    static final long TOKEN_SECONDS = 3600;
    static final int MAX_TOKENS = 1000;
    static final int STATUSES_PER_RECEIPT = 100;
    static final long RECEIPT_FLUSH_MILLIS = 100;

    private record Issued(String clientId, long expiresAtMillis) {}

    private final Map<String, String> apps = new ConcurrentHashMap<>(); // client id -> client secret
    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
    private final Set<String> forbiddenApps = ConcurrentHashMap.newKeySet();
    private final AtomicLong requestIds = new AtomicLong();
    private volatile String receiptUrl;
    private final Map<String, Queue<JsonObject>> pendingStatuses = new ConcurrentHashMap<>(); // by receipt URL
    private final AtomicBoolean flushScheduled = new AtomicBoolean();

    @Override
    public String channel() {
        return "vendor_a";
    }

    /** Registers an app: its tokens are then only issued for this client secret (our certificate fields). */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        apps.put(appId, appSecret == null ? "" : appSecret);
    }

    /** The receipt address configured for the apps (null: no receipts). */
    public void setReceiptUrl(String url) {
        this.receiptUrl = url;
    }

    /**
     * From now on the app's sends are refused with 80300002 "APP is forbidden to send" (server demo
     * ResponceCodeProcesser): Huawei's answer to an app without the permission to send, or penalised.
     */
    public void forbidApp(String appId) {
        forbiddenApps.add(appId);
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
        tokens.clear();
        forbiddenApps.clear();
        pendingStatuses.clear();
    }

    @Override
    protected void routes(Router router) {
        router.post("/_sim/receipt").handler(ctx -> {
            setReceiptUrl(ctx.body().asJsonObject().getString("url"));
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        router.post("/_sim/forbid").handler(ctx -> {
            forbidApp(ctx.body().asJsonObject().getString("app_id"));
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        router.post("/oauth2/v3/token").handler(this::token);
        router.postWithRegex("/v1/([^/]+)/messages:send").handler(this::send);
    }

    private void token(RoutingContext ctx) {
        String grant = ctx.request().getFormAttribute("grant_type");
        String clientId = ctx.request().getFormAttribute("client_id");
        String secret = ctx.request().getFormAttribute("client_secret");
        if (!"client_credentials".equals(grant) || empty(clientId) || empty(secret)) {
            reply(ctx, 400, new JsonObject().put("error", 1102).put("sub_error", 20001)
                    .put("error_description", "missing required parameter"));
            return;
        }
        String registered = apps.get(clientId);
        if (registered != null && !registered.equals(secret)) {
            reply(ctx, 400, new JsonObject().put("error", 1101).put("sub_error", 20003)
                    .put("error_description", "invalid client"));
            return;
        }
        String token = "CF" + UUID.randomUUID().toString().replace("-", "");
        tokens.put(token, new Issued(clientId, System.currentTimeMillis() + TOKEN_SECONDS * 1000));
        reply(ctx, 200, new JsonObject().put("access_token", token).put("expires_in", TOKEN_SECONDS)
                .put("token_type", "Bearer"));
    }

    private void send(RoutingContext ctx) {
        String appId = ctx.pathParam("param0");
        String auth = ctx.request().getHeader("Authorization");
        String bearer = auth != null && auth.startsWith("Bearer ") ? auth.substring(7).trim() : null;
        Issued issued = bearer == null ? null : tokens.get(bearer);
        if (issued == null || !issued.clientId().equals(appId)) {
            reply(ctx, 401, result("80200001", "Oauth authentication error"));
            return;
        }
        if (issued.expiresAtMillis() < System.currentTimeMillis()) {
            tokens.remove(bearer);
            reply(ctx, 401, result("80200003", "Oauth Token expired."));
            return;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.AUTH) {
            tokens.remove(bearer);
            reply(ctx, 401, result("80200003", "Oauth Token expired."));
            return;
        }
        if (fault == Faults.Kind.TRANSIENT) {
            reply(ctx, 503, result("81000001", "System inner error"));
            return;
        }
        if (forbiddenApps.contains(appId)) {
            reply(ctx, 403, result("80300002", "APP is forbidden to send"));
            return;
        }
        JsonObject message;
        JsonArray list;
        try {
            message = ctx.body().asJsonObject().getJsonObject("message");
            list = message.getJsonArray("token");
        } catch (RuntimeException e) {
            reply(ctx, 400, result("80100003", "Illegal payload"));
            return;
        }
        // Restrictions: at most 1000 tokens per request (server demo ResponceCodeProcesser 80300010)
        if (list == null || list.isEmpty() || list.size() > MAX_TOKENS) {
            reply(ctx, 400, result("80300010", "The number of tokens in the message body exceeds the default value"));
            return;
        }
        JsonObject refused = MessageRules.check(message);
        if (refused != null) {
            reply(ctx, 400, refused);
            return;
        }
        List<String> accepted = new ArrayList<>(list.size());
        JsonArray illegal = new JsonArray();
        for (int i = 0; i < list.size(); i++) {
            String token = list.getString(i);
            if (Faults.isInvalid(token)) {
                illegal.add(token);
            } else {
                accepted.add(token);
            }
        }
        if (accepted.isEmpty()) {
            reply(ctx, 400, result("80300007", "All the tokens are invalid"));
            return;
        }
        String text = message.encode();
        accepted.forEach(token -> recorder().delivered(token, text));
        String requestId = Long.toString(System.currentTimeMillis()) + requestIds.incrementAndGet();
        if (illegal.isEmpty()) {
            reply(ctx, 200, result("80000000", "Success").put("requestId", requestId));
        } else {
            String msg = new JsonObject().put("success", accepted.size()).put("failure", illegal.size())
                    .put("illegal_tokens", illegal).encode();
            reply(ctx, 200, result("80100000", msg).put("requestId", requestId));
        }
        JsonObject android = message.getJsonObject("android");
        String biTag = android == null ? null : android.getString("bi_tag");
        String url = receiptUrl;
        if (url != null && biTag != null) {
            Queue<JsonObject> queue = pendingStatuses.computeIfAbsent(url, u -> new ConcurrentLinkedQueue<>());
            long now = System.currentTimeMillis();
            for (String token : accepted) {
                queue.add(new JsonObject().put("biTag", biTag).put("appid", appId).put("token", token)
                        .put("status", 0).put("timestamp", now).put("requestId", requestId));
            }
            if (flushScheduled.compareAndSet(false, true)) {
                vertx().setTimer(RECEIPT_FLUSH_MILLIS, id -> flushReceipts());
            }
        }
    }

    /** Posts what is pending, {@value #STATUSES_PER_RECEIPT} statuses a callback. */
    private void flushReceipts() {
        flushScheduled.set(false);
        for (Map.Entry<String, Queue<JsonObject>> entry : pendingStatuses.entrySet()) {
            JsonArray statuses = new JsonArray();
            JsonObject status;
            while ((status = entry.getValue().poll()) != null) {
                statuses.add(status);
                if (statuses.size() == STATUSES_PER_RECEIPT) {
                    postCallback(entry.getKey(), "application/json", new JsonObject().put("statuses", statuses).encode());
                    statuses = new JsonArray();
                }
            }
            if (!statuses.isEmpty()) {
                postCallback(entry.getKey(), "application/json", new JsonObject().put("statuses", statuses).encode());
            }
        }
    }

    static JsonObject result(String code, String msg) {
        return new JsonObject().put("code", code).put("msg", msg);
    }

    private static boolean empty(String s) {
        return s == null || s.isBlank();
    }
}
