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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * OPPO PUSH. {@code POST /server/v1/auth} (app_key, timestamp, sign = sha256(app_key + timestamp +
 * master_secret)) issues auth tokens valid 24 h; {@code POST /server/v1/message/notification/unicast_batch} takes
 * {@code messages} (a JSON array, at most 1000) with the token in the {@code auth_token} form field and answers per
 * message. Each message is checked against OPPO's field rules (docs/channels/oppo.md "Simulator"); messages
 * without a 通讯与服务 category count against the app's daily public-message quota. Messages with
 * {@code call_back_url} get their arrival receipts posted there as a JSON array.
 *
 * <p>Sources named in the rules: "SDK" is the official Java server SDK opush-server-sdk 1.1.0 (classes
 * com.oppo.push.server.Notification#validate, Validate, ReturnCode.ErrorCode, RequestPath); "field table" is OPPO's
 * 通知栏消息 parameter table (open.oppomobile.com, OPPO PUSH 服务端API, 通知栏消息); "消息分类" is OPPO's message
 * classification rules (open.oppomobile.com, 消息分类, doc id 13189).
 */
public class OppoSimulator extends ProviderSimulator {

    static final long TOKEN_MILLIS = 24L * 3600 * 1000;
    /** 消息分类: 通讯与服务 (private: not limited) categories. */
    static final Set<String> PRIVATE_CATEGORIES = Set.of("IM", "ACCOUNT", "DEVICE_REMINDER", "ORDER", "TODO",
            "SUBSCRIPTION");
    /** 消息分类: 内容与营销 (public: counted against the daily quota) categories. */
    static final Set<String> PUBLIC_CATEGORIES = Set.of("NEWS", "CONTENT", "MARKETING", "SOCIAL");
    /**
     * OPPO's 限额说明: an app with fewer than 50,000 users may send 100,000 public messages a day (more users: twice
     * the user count). The simulator has no user count: the small app's quota unless a test sets another.
     */
    static final long DEFAULT_PUBLIC_DAILY_QUOTA = 100_000;

    private record Issued(String appKey, long expiresAtMillis) {}

    private final Map<String, String> apps = new ConcurrentHashMap<>(); // app key -> master secret
    private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> publicSentToday = new ConcurrentHashMap<>(); // app key -> count
    private final AtomicLong ids = new AtomicLong();
    private volatile long publicDailyQuota = DEFAULT_PUBLIC_DAILY_QUOTA;

    @Override
    public String channel() {
        return "vendor_c";
    }

    /** Registers an app (app_key = App Key, app_secret = MasterSecret): its auth signatures are then verified. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        apps.put(appKey, appSecret == null ? "" : appSecret);
    }

    /** Public (内容与营销 or uncategorized) messages each app may send until {@link #reset()}. */
    public void setPublicDailyQuota(long quota) {
        publicDailyQuota = quota;
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
        tokens.clear();
        publicSentToday.clear();
        publicDailyQuota = DEFAULT_PUBLIC_DAILY_QUOTA;
    }

    /** Form bodies of 1000 targets are far larger than Vert.x's default 8 KiB form attribute limit. */
    @Override
    protected int maxFormAttributeSize() {
        return 16 << 20;
    }

    @Override
    protected void routes(Router router) {
        // SDK RequestPath: BASE_PATH /server + VERSION_PATH /v1 + AUTH, NOTIFICATION_UNICAST_BATCH
        router.post("/server/v1/auth").handler(this::auth);
        router.post("/server/v1/message/notification/unicast_batch").handler(this::send);
    }

    private void auth(RoutingContext ctx) {
        MultiMap form = ctx.request().formAttributes();
        String appKey = form.get("app_key");
        String timestamp = form.get("timestamp");
        String sign = form.get("sign");
        // SDK ReturnCode.ErrorCode 15, 17, 18, 19, 16: the auth form's own answers
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
        // OPPO PUSH 服务端API, 鉴权: the server allows 10 minutes between its clock and timestamp
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
        // OPPO PUSH 服务端API, 公共参数: auth_token travels in the HTTP body (the SDK sends it as a form field)
        String token = form.get("auth_token");
        if (blank(token)) {
            reply(ctx, 200, result(29, "Missing Auth Token"));
            return;
        }
        Issued issued = tokens.get(token);
        if (issued == null || issued.expiresAtMillis() < System.currentTimeMillis()) {
            reply(ctx, 200, result(11, "Invalid Auth Token"));
            return;
        }
        Faults.Kind fault = faults().next();
        if (fault == Faults.Kind.AUTH) {
            tokens.remove(token);
            reply(ctx, 200, result(11, "Invalid Auth Token"));
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
            reply(ctx, 200, result(41, "Invalid Arguments: messages is not a JSON array"));
            return;
        }
        // OPPO PUSH 服务端API, 批量单推-通知栏消息: messages holds at most 1000 messages
        if (messages.isEmpty() || messages.size() > 1000) {
            reply(ctx, 200, result(41, "Invalid Arguments: messages must hold 1 to 1000 messages"));
            return;
        }
        AtomicLong publicSent = publicSentToday.computeIfAbsent(issued.appKey(), k -> new AtomicLong());
        // 限额说明: once the public quota is spent, the day's pushes are refused (SDK ReturnCode 33)
        if (publicSent.get() >= publicDailyQuota && countsAgainstQuota(messages)) {
            reply(ctx, 200, result(33, "The number of messages exceeds the daily limit"));
            return;
        }
        JsonArray data = new JsonArray();
        Map<String, JsonArray> receipts = new LinkedHashMap<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < messages.size(); i++) {
            JsonObject m = messages.getValue(i) instanceof JsonObject o ? o : new JsonObject();
            String regId = text(m, "target_value");
            String messageId = issued.appKey() + "-1-1-" + Long.toHexString(now) + ids.incrementAndGet();
            JsonObject item = new JsonObject().put("messageId", messageId).put("registrationId", regId);
            String invalid = invalidMessage(m);
            if (invalid != null) {
                item.put("errorCode", 41).put("errorMessage", "Invalid Arguments: " + invalid);
            } else if (Faults.isInvalid(regId)) {
                item.put("errorCode", 10000).put("errorMessage", "Invalid Registration_id");
            } else if (faults().failsTransiently(regId)) {
                item.put("errorCode", -1).put("errorMessage", "Service Currently Unavailable");
            } else {
                JsonObject n = m.getJsonObject("notification");
                if (!PRIVATE_CATEGORIES.contains(n.getString("category"))) {
                    publicSent.incrementAndGet();
                }
                recorder().delivered(regId, m.encode());
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

    private static boolean countsAgainstQuota(JsonArray messages) {
        for (int i = 0; i < messages.size(); i++) {
            Object n = messages.getValue(i) instanceof JsonObject m ? m.getValue("notification") : null;
            if (!(n instanceof JsonObject notification)
                    || !PRIVATE_CATEGORIES.contains(notification.getValue("category"))) {
                return true;
            }
        }
        return false;
    }

    /** Why OPPO refuses this message (the field named), or null when it is valid. */
    static String invalidMessage(JsonObject m) {
        // SDK TargetType: REGISTRATION_ID(2) is the only target of a unicast message
        if (!Integer.valueOf(2).equals(m.getValue("target_type")) || blank(text(m, "target_value"))) {
            return "target_type must be 2 with a target_value";
        }
        if (!(m.getValue("notification") instanceof JsonObject n)) {
            return "notification";
        }
        // SDK Notification.validate + field table: title and content are required; title at most 50 characters
        // (field table: every character, emoji too, counts one)
        String title = text(n, "title");
        String content = text(n, "content");
        if (blank(title) || blank(content)) {
            return "title and content are required";
        }
        if (characters(title) > 50) {
            return "title longer than 50";
        }
        // SDK Validate.validateStyle: 1..5; field table: content at most 200 (style 1), 128 (style 2), 50 (style 3)
        Object style = n.containsKey("style") ? n.getValue("style") : Integer.valueOf(1);
        if (!(style instanceof Integer s) || s < 1 || s > 5) {
            return "style";
        }
        int contentMax = switch (s) {
            case 2 -> 128;
            case 3 -> 50;
            default -> 200;
        };
        if (characters(content) > contentMax) {
            return "content longer than " + contentMax + " for style " + s;
        }
        String click = clickActionProblem(n);
        if (click != null) {
            return click;
        }
        // field table: action_parameters is a JSON object of at most 4K characters (read as 4096)
        String params = text(n, "action_parameters");
        if (params != null) {
            if (params.length() > 4096) {
                return "action_parameters longer than 4096";
            }
            try {
                new JsonObject(params);
            } catch (RuntimeException e) {
                return "action_parameters is not a JSON object";
            }
        }
        // SDK validate: off_line_ttl at most 864000 s (10 days); OPPO's field table as Getui/DCloud transcribe it:
        // at least 1 hour
        Object ttl = n.getValue("off_line_ttl");
        if (ttl != null && (!(ttl instanceof Integer t) || t < 3600 || t > 864_000)) {
            return "off_line_ttl must be 3600..864000";
        }
        // SDK validate: show_ttl 21600..172800 s
        Object showTtl = n.getValue("show_ttl");
        if (showTtl != null && (!(showTtl instanceof Integer t) || t < 21_600 || t > 172_800)) {
            return "show_ttl must be 21600..172800";
        }
        // field table: call_back_url at most 200 characters; SDK validate: call_back_parameter at most 50
        if (characters(text(n, "call_back_url")) > 200) {
            return "call_back_url longer than 200";
        }
        if (characters(text(n, "call_back_parameter")) > 50) {
            return "call_back_parameter longer than 50";
        }
        // field table notify_id ("每条消息在通知显示时的唯一标识，主要用于新旧消息的覆盖"); SDK Notification.notifyId is an
        // Integer: a 32-bit integer (OPPO states no narrower range)
        Object notifyId = n.getValue("notify_id");
        if (notifyId != null && !(notifyId instanceof Integer)) {
            return "notify_id must be an integer";
        }
        return categoryProblem(n);
    }

    /**
     * Field table: click_action_type 0 app, 1 activity by intent action, 2 web page, 4 activity by class name, 5 intent
     * scheme URL; 1 and 4 need click_action_activity, 2 and 5 click_action_url, each at most 500 characters.
     */
    private static String clickActionProblem(JsonObject n) {
        Object type = n.containsKey("click_action_type") ? n.getValue("click_action_type") : Integer.valueOf(0);
        if (!(type instanceof Integer t) || !Set.of(0, 1, 2, 4, 5).contains(t)) {
            return "click_action_type";
        }
        String target = t == 1 || t == 4 ? "click_action_activity" : t == 2 || t == 5 ? "click_action_url" : null;
        if (target != null && (blank(text(n, target)) || characters(text(n, target)) > 500)) {
            return target + " required for click_action_type " + t + ", at most 500";
        }
        return null;
    }

    /**
     * 消息分类: category is one of the 通讯与服务 or 内容与营销 values; field table: notify_level is 1 (bar), 2 (bar and
     * lock screen) or 16 (bar, lock screen, banner, vibration, ring), and needs a category.
     */
    private static String categoryProblem(JsonObject n) {
        Object category = n.getValue("category");
        if (category != null && !PRIVATE_CATEGORIES.contains(category) && !PUBLIC_CATEGORIES.contains(category)) {
            return "category " + category;
        }
        Object level = n.getValue("notify_level");
        if (level != null) {
            if (!(level instanceof Integer l) || !Set.of(1, 2, 16).contains(l)) {
                return "notify_level must be 1, 2 or 16";
            }
            if (category == null) {
                return "notify_level needs a category";
            }
        }
        return null;
    }

    private static String text(JsonObject o, String field) {
        return o.getValue(field) instanceof String s ? s : null;
    }

    /** Characters as OPPO counts them: every code point one (0 for null). */
    private static int characters(String s) {
        return s == null ? 0 : s.codePointCount(0, s.length());
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
