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
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The Meizu Flyme push server API (docs/channels/meizu.md): form POSTs to
 * {@code /garcia/api/server/push/varnished/pushByPushId} (notification) and {@code .../unvarnished/pushByPushId}
 * (pass-through), signed with md5 over the sorted {@code k=v} parameters and the appSecret. The sign is verified for
 * apps registered with {@code POST /_sim/apps} (or {@link #registerApp}); other apps need a well-formed sign.
 * Delivery receipts are posted in Meizu's callback format (form field {@code cb}), batched every
 * {@value #RECEIPT_FLUSH_MILLIS} ms.
 *
 * <p>Rules come from Meizu's HTTP API document (github.com/MEIZUPUSH/PushAPI, README, as of 2025-04-09: "PushAPI"
 * below, with its section) and from the official Java server SDK (com.meizu.flyme:push-server-sdk, "SDK" below, with
 * its class). Where the document says int 0/1 the SDK sends JSON booleans (SDK 1.2.9 vo.PushTimeInfo,
 * vo.AdvanceInfo, vo.NotificationType), so both are accepted. Device tokens by prefix: {@value Faults#INVALID_PREFIX}
 * -> 110003, {@value #SWITCHED_OFF_PREFIX} -> 110010, {@value Faults#FLAKY_PREFIX} -> 519 the first time.
 */
public class MeizuSimulator extends ProviderSimulator {

    static final long RECEIPT_FLUSH_MILLIS = 100;
    static final int RECEIPT_TARGETS_PER_CALLBACK = 1000;
    /** A pushId whose app notifications the user switched off (answered 110010). */
    public static final String SWITCHED_OFF_PREFIX = "switched-off";
    /** PushAPI "pushId推送接口": pushIds "一批最多不能超过100个" (since commit afe9ff0, 2023-08-21; 1000 before). */
    static final int MAX_PUSH_IDS = 100;
    /** PushAPI noticeBarInfo: title 1~32 characters, content 1~100 characters. */
    static final int TITLE_MAX = 32;
    static final int CONTENT_MAX = 100;
    /** PushAPI "pushId推送接口（透传消息）": content within 2000 (bytes: "2000字节以内" in the other pass-through APIs). */
    static final int PASS_THROUGH_CONTENT_MAX_BYTES = 2000;
    /** PushAPI clickTypeInfo.customAttribute: within 1000 bytes. */
    static final int CUSTOM_ATTRIBUTE_MAX_BYTES = 1000;
    /** PushAPI "消息送达与回执": callback at most 128 bytes, callback.param at most 64 bytes. */
    static final int CALLBACK_MAX_BYTES = 128;
    static final int CALLBACK_PARAM_MAX_BYTES = 64;
    /**
     * Public messages (noticeMsgType 0, Meizu's default) one device takes from one app a day; beyond it the pushId is
     * answered 110011 (PushAPI "map部分code定义": 单日公信消息数超过限制). The number is not in PushAPI: Tencent Cloud IM's
     * vendor guide ("厂商消息分类限制和使用指南", Meizu row, rule in force since 2025-05-07) gives 3 a day (5 for news
     * apps); private messages (1) are not capped.
     */
    static final int PUBLIC_MESSAGES_PER_DEVICE_AND_DAY = 3;
    /** Meizu's counting day (the days of the cap) is China's. */
    static final ZoneId MEIZU_ZONE = ZoneId.of("Asia/Shanghai");
    private static final Pattern NOTIFY_KEY = Pattern.compile("[0-9A-Za-z_-]{0,8}");

    private record PendingReceipt(String msgId, String param, String pushId) {}

    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final Map<String, Queue<PendingReceipt>> pendingReceipts = new ConcurrentHashMap<>();
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final Map<String, AtomicInteger> publicMessagesToday = new ConcurrentHashMap<>();
    private volatile LocalDate countingDay = LocalDate.now(MEIZU_ZONE);

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
        publicMessagesToday.clear();
    }

    /** A request of 100 pushIds and a messageJson exceeds Vert.x's default form attribute limit (8 KiB). */
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
            answer(ctx, "1003", "服务器忙"); // PushAPI "Api returnCode定义": 1003 server busy
            return;
        }
        if (fault == Faults.Kind.AUTH) {
            answer(ctx, "1006", "签名认证失败");
            return;
        }
        if (fault == Faults.Kind.QUOTA_SPENT) {
            answer(ctx, "110019", "超过该应用每天推送次数限制"); // the app's pushes of the day are spent (SDK ErrorCode)
            return;
        }
        String appId = form.get("appId");
        String pushIds = form.get("pushIds");
        String messageJson = form.get("messageJson");
        String sign = form.get("sign");
        // PushAPI "pushId推送接口": appId, pushIds, sign and messageJson 必填; 110004 参数不能为空
        if (empty(appId) || empty(pushIds) || empty(messageJson) || empty(sign)) {
            answer(ctx, "110004", "参数不能为空");
            return;
        }
        // SDK 1.2.9 model.push.Message: appId is a Long; 110000 appId不合法
        if (!appId.matches("[0-9]{1,19}")) {
            answer(ctx, "110000", "appId不合法");
            return;
        }
        // PushAPI "接口签名规范": md5 (32 lower-case hex) of the sorted raw k=v of every parameter but sign, + appSecret
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
        String[] targets = pushIds.split(",");
        if (targets.length > MAX_PUSH_IDS) {
            answer(ctx, "1005", "参数错误: pushIds 一批最多不能超过" + MAX_PUSH_IDS + "个");
            return;
        }
        JsonObject message;
        try {
            message = new JsonObject(messageJson);
        } catch (RuntimeException e) {
            answer(ctx, "1005", "参数错误，请参考API文档"); // 1005: parameter error
            return;
        }
        String invalidField = notification ? checkNotification(message) : checkPassThrough(message);
        if (invalidField != null) {
            answer(ctx, "1005", "参数错误: " + invalidField);
            return;
        }
        boolean publicMessage = notification && isPublic(message);
        String msgId = UUID.randomUUID().toString().replace("-", "");
        JsonObject extra = notification ? object(message, "extra") : null;
        String callback = extra == null ? null : string(extra, "callback");
        Integer callbackType = extra == null ? null : integer(extra.getValue("callback.type"));
        // PushAPI "消息送达与回执": callback.type 1 delivery, 2 click, 3 both (the default); receipts for notifications only
        boolean wantsDelivery = !empty(callback) && (callbackType == null || callbackType == 1 || callbackType == 3);
        Queue<PendingReceipt> queue = wantsDelivery
                ? pendingReceipts.computeIfAbsent(callback, u -> new ConcurrentLinkedQueue<>()) : null;
        String param = extra == null ? "" : String.valueOf(extra.getValue("callback.param", ""));
        // PushAPI "前言": value maps a code to the pushIds that failed with it; accepted pushIds are not listed
        Map<String, JsonArray> failed = new TreeMap<>();
        for (String target : targets) {
            String pushId = target.trim();
            String code = targetFailure(appId, pushId, publicMessage);
            if (code != null) {
                failed.computeIfAbsent(code, c -> new JsonArray()).add(pushId);
            } else {
                recorder().delivered(pushId, messageJson);
                if (queue != null) {
                    queue.add(new PendingReceipt(msgId, param, pushId));
                }
            }
        }
        if (queue != null && flushScheduled.compareAndSet(false, true)) {
            vertx().setTimer(RECEIPT_FLUSH_MILLIS, id -> flushReceipts());
        }
        JsonObject value = new JsonObject();
        failed.forEach(value::put);
        reply(ctx, 200, new JsonObject().put("code", "200").put("message", "").put("value", value)
                .put("redirect", "").put("msgId", msgId));
    }

    /** The per-pushId code (PushAPI "map部分code定义") of a pushId that is not delivered, or null. */
    private String targetFailure(String appId, String pushId, boolean publicMessage) {
        if (Faults.isInvalid(pushId)) {
            return "110003"; // pushId非法
        }
        if (pushId.startsWith(SWITCHED_OFF_PREFIX)) {
            return "110010"; // pushId失效(消息开关关闭)
        }
        if (faults().failsTransiently(pushId)) {
            return "519"; // 推送消息失败服务过载
        }
        if (publicMessage && !takePublicMessage(appId, pushId)) {
            return "110011"; // 单日公信消息数超过限制
        }
        return null;
    }

    /** Counts a public message to the device; false when its cap of the day is reached. */
    private boolean takePublicMessage(String appId, String pushId) {
        LocalDate today = LocalDate.now(MEIZU_ZONE);
        if (!today.equals(countingDay)) {
            countingDay = today;
            publicMessagesToday.clear();
        }
        AtomicInteger count = publicMessagesToday.computeIfAbsent(appId + "/" + pushId, k -> new AtomicInteger());
        return count.incrementAndGet() <= PUBLIC_MESSAGES_PER_DEVICE_AND_DAY;
    }

    /** PushAPI noticeBarInfo.noticeMsgType: 0 public (公信), 1 private (私信); absent is 0. */
    private static boolean isPublic(JsonObject message) {
        Integer type = integer(object(message, "noticeBarInfo").getValue("noticeMsgType"));
        return type == null || type == 0;
    }

    /** The name of the first wrong field of a notification messageJson (PushAPI "pushId推送接口（通知栏消息）"), or null. */
    private static String checkNotification(JsonObject message) {
        JsonObject bar = object(message, "noticeBarInfo");
        if (bar == null) {
            return "noticeBarInfo";
        }
        if (!oneOf(bar, "noticeMsgType", 0, 1)) {
            return "noticeBarInfo.noticeMsgType";
        }
        // (0 standard), (2 Android native); picture bars (1) stopped on 2022-05-27 (SDK README, 1.2.9 changelog)
        if (!oneOf(bar, "noticeBarType", 0, 2)) {
            return "noticeBarInfo.noticeBarType";
        }
        if (!text(bar, "title", 1, TITLE_MAX)) {
            return "noticeBarInfo.title";
        }
        if (!text(bar, "content", 1, CONTENT_MAX)) {
            return "noticeBarInfo.content";
        }
        String expand = checkExpand(object(message, "noticeExpandInfo"));
        if (expand != null) {
            return expand;
        }
        String click = checkClick(object(message, "clickTypeInfo"));
        if (click != null) {
            return click;
        }
        String advance = checkAdvance(object(message, "advanceInfo"));
        if (advance != null) {
            return advance;
        }
        String extra = checkExtra(object(message, "extra"));
        return extra != null ? extra : checkTime(message);
    }

    private static String checkExpand(JsonObject expand) {
        if (expand == null) {
            return null;
        }
        // (0 standard), (1 text: noticeExpandContent required); (2 big picture) is for VIP apps only, which a
        // simulated app never is
        if (!oneOf(expand, "noticeExpandType", 0, 1)) {
            return "noticeExpandInfo.noticeExpandType";
        }
        if (Integer.valueOf(1).equals(integer(expand.getValue("noticeExpandType")))
                && empty(string(expand, "noticeExpandContent"))) {
            return "noticeExpandInfo.noticeExpandContent";
        }
        return null;
    }

    private static String checkClick(JsonObject click) {
        if (click == null) {
            return null;
        }
        // (0 open the app), (1 an activity: activity required), (2 a URI: url required), (3 client-defined:
        // customAttribute required, within 1000 bytes; Meizu asks apps not to use it since Android 12)
        if (!oneOf(click, "clickType", 0, 1, 2, 3)) {
            return "clickTypeInfo.clickType";
        }
        Integer clickType = integer(click.getValue("clickType"));
        if (Integer.valueOf(1).equals(clickType) && empty(string(click, "activity"))) {
            return "clickTypeInfo.activity";
        }
        if (Integer.valueOf(2).equals(clickType) && empty(string(click, "url"))) {
            return "clickTypeInfo.url";
        }
        if (Integer.valueOf(3).equals(clickType) && (empty(string(click, "customAttribute"))
                || string(click, "customAttribute").getBytes(StandardCharsets.UTF_8).length > CUSTOM_ATTRIBUTE_MAX_BYTES)) {
            return "clickTypeInfo.customAttribute";
        }
        // parameters: JSON
        if (click.getValue("parameters") != null && !(click.getValue("parameters") instanceof JsonObject)) {
            return "clickTypeInfo.parameters";
        }
        return null;
    }

    private static String checkAdvance(JsonObject advance) {
        if (advance == null) {
            return null;
        }
        for (String flag : new String[] {"suspend", "clearNoticeBar", "fixDisplay"}) {
            if (!flag(advance.getValue(flag))) {
                return "advanceInfo." + flag;
            }
        }
        JsonObject alerts = object(advance, "notificationType");
        if (alerts != null) {
            for (String flag : new String[] {"vibrate", "lights", "sound"}) {
                if (!flag(alerts.getValue(flag))) {
                    return "advanceInfo.notificationType." + flag;
                }
            }
        }
        // notifyKey: digits, letters, _ and -, at most 8 characters
        Object notifyKey = advance.getValue("notifyKey");
        if (notifyKey != null && !(notifyKey instanceof String key && NOTIFY_KEY.matcher(key).matches())) {
            return "advanceInfo.notifyKey";
        }
        return null;
    }

    /** extra asks for receipts: callback required then (an empty extra, as the SDK sends by default, asks none). */
    private static String checkExtra(JsonObject extra) {
        if (extra == null || extra.isEmpty()) {
            return null;
        }
        String callback = string(extra, "callback");
        if (empty(callback) || callback.getBytes(StandardCharsets.UTF_8).length > CALLBACK_MAX_BYTES) {
            return "extra.callback";
        }
        Object param = extra.getValue("callback.param");
        if (param != null && String.valueOf(param).getBytes(StandardCharsets.UTF_8).length > CALLBACK_PARAM_MAX_BYTES) {
            return "extra.callback.param";
        }
        // callback.type: 1, 2 or 3 (the SDK's extra map sends it as a string)
        Object type = extra.getValue("callback.type");
        Integer callbackType = integer(type);
        if (type != null && (callbackType == null || callbackType < 1 || callbackType > 3)) {
            return "extra.callback.type";
        }
        return null;
    }

    /** PushAPI "pushId推送接口（透传消息）": title optional (1~32), content required within 2000 bytes. */
    private static String checkPassThrough(JsonObject message) {
        String content = string(message, "content");
        if (empty(content) || content.getBytes(StandardCharsets.UTF_8).length > PASS_THROUGH_CONTENT_MAX_BYTES) {
            return "content";
        }
        if (message.getValue("title") != null && !text(message, "title", 1, TITLE_MAX)) {
            return "title";
        }
        return checkTime(message);
    }

    /** pushTimeInfo: offLine 0/1, validTime 1~72 hours (default 24). */
    private static String checkTime(JsonObject message) {
        JsonObject time = object(message, "pushTimeInfo");
        if (time == null) {
            return null;
        }
        if (!flag(time.getValue("offLine"))) {
            return "pushTimeInfo.offLine";
        }
        if (time.containsKey("validTime")) {
            Integer hours = integer(time.getValue("validTime"));
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

    private static JsonObject object(JsonObject parent, String key) {
        return parent.getValue(key) instanceof JsonObject o ? o : null;
    }

    /** A string field, or null when absent or not a string. */
    private static String string(JsonObject parent, String key) {
        return parent.getValue(key) instanceof String s ? s : null;
    }

    /** A string field of {@code min..max} characters (code points). */
    private static boolean text(JsonObject parent, String key, int min, int max) {
        String value = string(parent, key);
        int length = value == null ? -1 : value.codePointCount(0, value.length());
        return length >= min && length <= max;
    }

    /** True when the field is absent or one of the values. */
    private static boolean oneOf(JsonObject parent, String key, int... allowed) {
        Object value = parent.getValue(key);
        if (value == null) {
            return true;
        }
        Integer number = integer(value);
        for (int candidate : allowed) {
            if (number != null && number == candidate) {
                return true;
            }
        }
        return false;
    }

    /** An on/off switch: absent, 0, 1 (the document) or a boolean (the SDK). */
    private static boolean flag(Object value) {
        Integer number = integer(value);
        return value == null || value instanceof Boolean || number != null && (number == 0 || number == 1);
    }

    private static Integer integer(Object value) {
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).intValue();
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
