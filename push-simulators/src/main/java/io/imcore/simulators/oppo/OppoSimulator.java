package io.imcore.simulators.oppo;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * vendor_c: OPPO PUSH. {@code POST /server/v1/auth} (app_key, timestamp, sign = sha256(app_key + timestamp +
 * master_secret)) issues auth tokens valid 24 h; {@code POST /server/v1/message/notification/unicast_batch} takes
 * {@code messages} (a JSON array, at most 1000) with the token in the {@code auth_token} header or form field and
 * answers per message (errorCode 10000 for an invalid registration id). Messages with {@code call_back_url} get
 * their arrival receipts posted there as a JSON array.
 */
public class OppoSimulator extends ProviderSimulator {

    static final long TOKEN_MILLIS = 24L * 3600 * 1000;

    private record Issued(String appKey, long expiresAtMillis) {}

    private final Map<String, String> apps = new ConcurrentHashMap<>(); // app key -> master secret
    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    @Override
    public String channel() {
        return "vendor_c";
    }

    /** Registers an app (app_key = App Key, app_secret = MasterSecret): its auth signatures are then verified. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        apps.put(appKey, appSecret == null ? "" : appSecret);
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
        tokens.clear();
    }

    /** Form bodies of 1000 targets are far larger than Vert.x's default 8 KiB form attribute limit. */
    @Override
    protected int maxFormAttributeSize() {
        return 16 << 20;
    }

    @Override
    protected void routes(Router router) {
        router.post("/server/v1/auth").handler(this::auth);
        router.post("/server/v1/message/notification/unicast_batch").handler(this::send);
    }

    private void auth(RoutingContext ctx) {
        MultiMap form = ctx.request().formAttributes();
        String appKey = form.get("app_key");
        String timestamp = form.get("timestamp");
        String sign = form.get("sign");
        if (blank(appKey)) {
            reply(ctx, 200, result(15, "Missing App Key"));
            return;
        }
        if (blank(sign)) {
            reply(ctx, 200, result(17, "Missing Signature"));
            return;
        }
        long ts;
        try {
            ts = Long.parseLong(timestamp);
        } catch (RuntimeException e) {
            reply(ctx, 200, result(18, "Missing Timestamp"));
            return;
        }
        if (Math.abs(System.currentTimeMillis() - ts) > 10 * 60 * 1000) {
            reply(ctx, 200, result(19, "Invalid Timestamp"));
            return;
        }
        String secret = apps.get(appKey);
        if (secret != null && !sha256(appKey + timestamp + secret).equalsIgnoreCase(sign)) {
            reply(ctx, 200, result(16, "Invalid Signature"));
            return;
        }
        String token = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        tokens.put(token, new Issued(appKey, now + TOKEN_MILLIS));
        reply(ctx, 200, result(0, "Success").put("data", new JsonObject().put("auth_token", token)
                .put("create_time", now)));
    }

    private void send(RoutingContext ctx) {
        MultiMap form = ctx.request().formAttributes();
        String token = ctx.request().getHeader("auth_token");
        if (blank(token)) {
            token = form.get("auth_token");
        }
        Issued issued = token == null ? null : tokens.get(token);
        if (issued == null || issued.expiresAtMillis() < System.currentTimeMillis()) {
            reply(ctx, 200, result(11, "Invalid AuthToken"));
            return;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.AUTH) {
            tokens.remove(token);
            reply(ctx, 200, result(11, "Invalid AuthToken"));
            return;
        }
        if (fault == Faults.Kind.TRANSIENT) {
            reply(ctx, 200, result(-2, "Service in Flow Control"));
            return;
        }
        JsonArray messages;
        try {
            messages = new JsonArray(form.get("messages"));
        } catch (RuntimeException e) {
            reply(ctx, 200, result(41, "Invalid Arguments"));
            return;
        }
        if (messages.isEmpty() || messages.size() > 1000) {
            reply(ctx, 200, result(41, "Invalid Arguments: messages must hold 1 to 1000 messages"));
            return;
        }
        JsonArray data = new JsonArray();
        Map<String, JsonArray> receipts = new LinkedHashMap<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < messages.size(); i++) {
            JsonObject m = messages.getJsonObject(i);
            String regId = m.getString("target_value");
            JsonObject n = m.getJsonObject("notification");
            String messageId = issued.appKey() + "-1-1-" + Long.toHexString(now) + ids.incrementAndGet();
            JsonObject item = new JsonObject().put("messageId", messageId).put("registrationId", regId);
            if (n == null || blank(n.getString("title")) || blank(n.getString("content"))) {
                item.put("errorCode", 41).put("errorMessage", "Invalid Arguments: title and content required");
            } else if (Faults.isInvalid(regId) || m.getInteger("target_type", 0) != 2) {
                item.put("errorCode", 10000).put("errorMessage", "Invalid Registration_id");
            } else if (faults().failsTransiently(regId)) {
                item.put("errorCode", -1).put("errorMessage", "Service Currently Unavailable");
            } else {
                recorder().delivered(regId);
                String url = n.getString("call_back_url");
                if (!blank(url)) {
                    receipts.computeIfAbsent(url, u -> new JsonArray()).add(new JsonObject()
                            .put("messageId", messageId).put("appId", issued.appKey()).put("taskId", messageId)
                            .put("registrationIds", regId).put("eventTime", Long.toString(now))
                            .put("param", n.getString("call_back_parameter")).put("eventType", "push_arrive"));
                }
            }
            data.add(item);
        }
        reply(ctx, 200, result(0, "Success").put("data", data));
        receipts.forEach((url, list) -> {
            String body = list.encode();
            later(() -> postCallback(url, "application/json", body));
        });
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonObject result(int code, String message) {
        return new JsonObject().put("code", code).put("message", message);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
