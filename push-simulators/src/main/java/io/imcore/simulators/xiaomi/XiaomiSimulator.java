package io.imcore.simulators.xiaomi;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * vendor_b: Xiaomi push. {@code POST /v3/message/regid} (and {@code /v2/message/regid}), form-encoded,
 * {@code Authorization: key=<AppSecret>}: answers code 0 with {@code data.id} and {@code data.bad_regids} for the
 * invalid regIds, 20301 "No valid targets!" when all are invalid, 21301 for a refused key. Asked for receipts
 * ({@code extra.callback}, type including 1), it posts the delivered regIds to the callback as form
 * {@code data=<JSON>}.
 */
public class XiaomiSimulator extends ProviderSimulator {

    private final Map<String, String> apps = new ConcurrentHashMap<>(); // package name -> AppSecret
    private final AtomicLong ids = new AtomicLong();

    @Override
    public String channel() {
        return "vendor_b";
    }

    /** Registers an app (app_id = package name, app_secret = AppSecret): its requests must carry that key. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        apps.put(appId, appSecret == null ? "" : appSecret);
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
    }

    /** Form bodies of 1000 targets are far larger than Vert.x's default 8 KiB form attribute limit. */
    @Override
    protected int maxFormAttributeSize() {
        return 16 << 20;
    }

    @Override
    protected void routes(Router router) {
        router.post("/v3/message/regid").handler(this::send);
        router.post("/v2/message/regid").handler(this::send);
    }

    private void send(RoutingContext ctx) {
        MultiMap form = ctx.request().formAttributes();
        String auth = ctx.request().getHeader("Authorization");
        String key = auth != null && auth.startsWith("key=") ? auth.substring(4) : null;
        String pkg = form.get("restricted_package_name");
        String registered = pkg == null ? null : apps.get(pkg);
        if (key == null || key.isBlank() || (registered != null && !registered.equals(key))) {
            reply(ctx, 200, error(21301, "Authentication failed", "认证失败"));
            return;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.AUTH) {
            reply(ctx, 200, error(21301, "Authentication failed", "认证失败"));
            return;
        }
        if (fault == Faults.Kind.TRANSIENT) {
            reply(ctx, 200, error(10027, "Too many requests", "应用的API调用太频繁"));
            return;
        }
        String regIds = form.get("registration_id");
        if (regIds == null || regIds.isBlank() || pkg == null || pkg.isBlank()) {
            reply(ctx, 200, error(10016, "Missing required parameter", "缺失必选参数"));
            return;
        }
        boolean passThrough = "1".equals(form.get("pass_through"));
        if (!passThrough && (blank(form.get("title")) || blank(form.get("description")))) {
            reply(ctx, 200, error(10017, "title and description are required", "参数值非法"));
            return;
        }
        String[] targets = regIds.split(",");
        if (targets.length > 1000) {
            reply(ctx, 200, error(10017, "too many registration ids", "参数值非法"));
            return;
        }
        StringJoiner bad = new StringJoiner(",");
        StringJoiner good = new StringJoiner(",");
        int accepted = 0;
        for (String t : targets) {
            String token = t.trim();
            if (token.isEmpty()) {
                continue;
            }
            if (Faults.isInvalid(token)) {
                bad.add(token);
            } else {
                good.add(token);
                recorder().delivered(token);
                accepted++;
            }
        }
        if (accepted == 0) {
            reply(ctx, 200, error(20301, "No valid targets!", "发送消息失败"));
            return;
        }
        String msgId = "sdm" + System.currentTimeMillis() + "-" + ids.incrementAndGet();
        JsonObject data = new JsonObject().put("id", msgId);
        if (bad.length() > 0) {
            data.put("bad_regids", bad.toString());
        }
        reply(ctx, 200, new JsonObject().put("result", "ok").put("trace_id", msgId).put("code", 0)
                .put("data", data).put("description", "成功").put("info", "Received push messages for "
                        + accepted + " REGID"));
        String callback = form.get("extra.callback");
        int type = parseInt(form.get("extra.callback.type"), 3);
        if (callback != null && !callback.isBlank() && (type & 1) != 0) {
            JsonObject receipt = new JsonObject().put(msgId, new JsonObject()
                    .put("param", form.get("extra.callback.param"))
                    .put("type", 1)
                    .put("targets", good.toString())
                    .put("barStatus", "Enable")
                    .put("timestamp", System.currentTimeMillis()));
            String body = "data=" + URLEncoder.encode(receipt.encode(), StandardCharsets.UTF_8);
            later(() -> postCallback(callback, "application/x-www-form-urlencoded", body));
        }
    }

    private static JsonObject error(int code, String reason, String description) {
        return new JsonObject().put("result", "error").put("reason", reason).put("code", code)
                .put("description", description);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static int parseInt(String s, int otherwise) {
        try {
            return s == null ? otherwise : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
