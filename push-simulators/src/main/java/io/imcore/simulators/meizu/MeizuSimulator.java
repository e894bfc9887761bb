package io.imcore.simulators.meizu;

import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * vendor_e: the Meizu Flyme push server API (docs/channels/vendor_e.md): form POSTs to
 * {@code /garcia/api/server/push/varnished/pushByPushId} (notification) and {@code .../unvarnished/pushByPushId}
 * (pass-through), signed with md5 over the sorted {@code k=v} parameters and the appSecret. The sign is verified for
 * apps registered with {@code POST /_sim/apps} (or {@link #registerApp}); other apps need a well-formed sign.
 * Delivery receipts are posted in Meizu's callback format (form field {@code cb}), batched every
 * {@value #RECEIPT_FLUSH_MILLIS} ms.
 */
public class MeizuSimulator extends ProviderSimulator {

    static final long RECEIPT_FLUSH_MILLIS = 100;
    static final int RECEIPT_TARGETS_PER_CALLBACK = 1000;

    private record PendingReceipt(String msgId, String param, String pushId) {}

    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final Map<String, Queue<PendingReceipt>> pendingReceipts = new ConcurrentHashMap<>();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();

    @Override
    public String channel() {
        return "vendor_e";
    }

    /** Registers an app: its requests must then be signed with this appSecret. */
    public void registerApp(String appId, String appSecret) {
        secrets.put(appId, appSecret);
    }

    /** From {@code POST /_sim/apps}: Meizu signs with the appSecret alone. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        registerApp(appId, appSecret);
    }

    @Override
    public void reset() {
        super.reset();
        secrets.clear();
        pendingReceipts.clear();
    }

    /** Form bodies of 1000 pushIds exceed Vert.x's default form attribute limit (8 KiB). */
    @Override
    protected int maxFormAttributeSize() {
        return 4 << 20;
    }

    @Override
    protected void routes(Router router) {
        router.post("/garcia/api/server/push/varnished/pushByPushId").handler(ctx -> push(ctx, true));
        router.post("/garcia/api/server/push/unvarnished/pushByPushId").handler(ctx -> push(ctx, false));
    }

    private void push(RoutingContext ctx, boolean notification) {
        MultiMap form = ctx.request().formAttributes();
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.TRANSIENT) {
            answer(ctx, "1003", "服务器忙");
            return;
        }
        if (fault == Faults.Kind.AUTH) {
            answer(ctx, "1006", "签名认证失败");
            return;
        }
        String appId = form.get("appId");
        String pushIds = form.get("pushIds");
        String messageJson = form.get("messageJson");
        String sign = form.get("sign");
        if (empty(appId) || empty(pushIds) || empty(messageJson) || empty(sign)) {
            answer(ctx, "110004", "参数不能为空");
            return;
        }
        String secret = secrets.get(appId);
        if (secret != null) {
            Map<String, String> params = new TreeMap<>();
            form.forEach(e -> params.put(e.getKey(), e.getValue()));
            params.remove("sign");
            StringBuilder base = new StringBuilder();
            params.forEach((k, v) -> base.append(k).append('=').append(v));
            if (!md5(base.append(secret).toString()).equals(sign)) {
                answer(ctx, "1006", "签名认证失败");
                return;
            }
        } else if (!sign.matches("[0-9a-f]{32}")) {
            answer(ctx, "1006", "签名认证失败");
            return;
        }
        JsonObject message;
        try {
            message = new JsonObject(messageJson);
        } catch (RuntimeException e) {
            answer(ctx, "1005", "参数错误，请参考API文档");
            return;
        }
        String invalidField = notification ? checkNotification(message) : checkPassThrough(message);
        if (invalidField != null) {
            answer(ctx, "1005", "参数错误: " + invalidField);
            return;
        }
        String[] targets = pushIds.split(",");
        if (targets.length > 1000) {
            answer(ctx, "1005", "pushIds 一批最多不能超过1000个");
            return;
        }
        String msgId = UUID.randomUUID().toString().replace("-", "");
        JsonObject extra = notification && message.getValue("extra") instanceof JsonObject o ? o : null;
        String callback = extra == null ? null : extra.getString("callback");
        Object callbackType = extra == null ? null : extra.getValue("callback.type");
        boolean wantsDelivery = callback != null && !callback.isEmpty()
                && (callbackType == null || "1".equals(String.valueOf(callbackType)) || "3".equals(String.valueOf(callbackType)));
        Queue<PendingReceipt> queue = wantsDelivery
                ? pendingReceipts.computeIfAbsent(callback, u -> new ConcurrentLinkedQueue<>()) : null;
        String param = extra == null ? "" : String.valueOf(extra.getValue("callback.param", ""));
        JsonArray invalid = null;
        JsonArray overloaded = null;
        for (String target : targets) {
            String pushId = target.trim();
            if (Faults.isInvalid(pushId)) {
                invalid = invalid == null ? new JsonArray() : invalid;
                invalid.add(pushId);
            } else if (faults().failsTransiently(pushId)) {
                overloaded = overloaded == null ? new JsonArray() : overloaded;
                overloaded.add(pushId);
            } else {
                recorder().delivered(pushId);
                if (queue != null) {
                    queue.add(new PendingReceipt(msgId, param, pushId));
                }
            }
        }
        if (queue != null && flushScheduled.compareAndSet(false, true)) {
            vertx().setTimer(RECEIPT_FLUSH_MILLIS, id -> flushReceipts());
        }
        JsonObject value = new JsonObject();
        if (invalid != null) {
            value.put("110003", invalid);
        }
        if (overloaded != null) {
            value.put("519", overloaded);
        }
        reply(ctx, 200, new JsonObject().put("code", "200").put("message", "").put("value", value)
                .put("redirect", "").put("msgId", msgId));
    }

    /** The name of the first wrong field of a notification messageJson, or null. */
    private static String checkNotification(JsonObject message) {
        JsonObject bar = message.getValue("noticeBarInfo") instanceof JsonObject o ? o : null;
        if (bar == null) {
            return "noticeBarInfo";
        }
        String title = bar.getString("title");
        if (title == null || title.isEmpty() || title.codePointCount(0, title.length()) > 32) {
            return "noticeBarInfo.title";
        }
        String content = bar.getString("content");
        if (content == null || content.isEmpty() || content.codePointCount(0, content.length()) > 100) {
            return "noticeBarInfo.content";
        }
        JsonObject expand = message.getValue("noticeExpandInfo") instanceof JsonObject o ? o : null;
        if (expand != null && Integer.valueOf(1).equals(intOrNull(expand.getValue("noticeExpandType")))
                && empty(expand.getString("noticeExpandContent"))) {
            return "noticeExpandInfo.noticeExpandContent";
        }
        JsonObject click = message.getValue("clickTypeInfo") instanceof JsonObject o ? o : null;
        if (click != null) {
            Integer clickType = intOrNull(click.getValue("clickType"));
            if (clickType != null && (clickType < 0 || clickType > 3)
                    || Integer.valueOf(1).equals(clickType) && empty(click.getString("activity"))
                    || Integer.valueOf(2).equals(clickType) && empty(click.getString("url"))) {
                return "clickTypeInfo";
            }
            if (click.containsKey("parameters") && !(click.getValue("parameters") instanceof JsonObject)) {
                return "clickTypeInfo.parameters";
            }
        }
        return checkTime(message);
    }

    private static String checkPassThrough(JsonObject message) {
        String content = message.getString("content");
        if (content == null || content.isEmpty() || content.getBytes(StandardCharsets.UTF_8).length > 2000) {
            return "content";
        }
        String title = message.getString("title");
        if (title != null && title.codePointCount(0, title.length()) > 32) {
            return "title";
        }
        return checkTime(message);
    }

    private static String checkTime(JsonObject message) {
        JsonObject time = message.getValue("pushTimeInfo") instanceof JsonObject o ? o : null;
        if (time != null && time.containsKey("validTime")) {
            Integer hours = intOrNull(time.getValue("validTime"));
            if (hours == null || hours < 1 || hours > 72) {
                return "pushTimeInfo.validTime";
            }
        }
        return null;
    }

    // ---- receipts ----

    /**
     * Meizu's receipt: a form POST with {@code cb} = JSON keyed by {@code <msgId>-<type>}, each
     * {@code {"param": callback.param, "type": 1, "targets": [pushId, ...]}}, and {@code access_token}.
     */
    private void flushReceipts() {
        flushScheduled.set(false);
        for (Map.Entry<String, Queue<PendingReceipt>> entry : pendingReceipts.entrySet()) {
            Queue<PendingReceipt> queue = entry.getValue();
            while (!queue.isEmpty()) {
                Map<String, JsonObject> byMessage = new LinkedHashMap<>();
                PendingReceipt receipt;
                int count = 0;
                while (count < RECEIPT_TARGETS_PER_CALLBACK && (receipt = queue.poll()) != null) {
                    PendingReceipt r = receipt;
                    byMessage.computeIfAbsent(r.msgId() + "-1", k -> new JsonObject().put("param", r.param())
                            .put("type", 1).put("targets", new JsonArray())).getJsonArray("targets").add(r.pushId());
                    count++;
                }
                if (count == 0) {
                    break;
                }
                JsonObject cb = new JsonObject();
                byMessage.forEach(cb::put);
                String body = "cb=" + URLEncoder.encode(cb.encode(), StandardCharsets.UTF_8)
                        + "&access_token=" + URLEncoder.encode(channel() + "-sim", StandardCharsets.UTF_8);
                postCallback(entry.getKey(), "application/x-www-form-urlencoded;charset=UTF-8", body);
            }
        }
    }

    // ---- helpers ----

    private void answer(RoutingContext ctx, String code, String message) {
        reply(ctx, 200, new JsonObject().put("code", code).put("message", message).put("value", "").put("redirect", ""));
    }

    private static boolean empty(String value) {
        return value == null || value.isEmpty();
    }

    private static Integer intOrNull(Object value) {
        if (value instanceof Number n) {
            return n.intValue();
        }
        if (value instanceof String s) {
            try {
                return Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static String md5(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
