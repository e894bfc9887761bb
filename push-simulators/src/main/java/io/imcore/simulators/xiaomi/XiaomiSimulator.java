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
 * Xiaomi push. {@code POST /v3/message/regid} (and {@code /v2/message/regid}), form-encoded,
 * {@code Authorization: key=<AppSecret>}. Checks what Xiaomi's documents require of a regId message (each rule names
 * its source; docs/channels/xiaomi.md lists them) and answers with Xiaomi's codes: code 0 with {@code data.id} and
 * {@code data.bad_regids} for the invalid regIds, 20301 "No valid targets!" when all are invalid, 21301 for a refused
 * key, 10016/10017 for missing or illegal parameters, 27001 for a channel the app has not registered, 200001 when the
 * app's daily quota of public messages is spent (also the answer to an injected QUOTA_SPENT fault). Asked for
 * receipts ({@code extra.callback}, type including 1), it posts the delivered regIds to the callback as form
 * {@code data=<JSON>}.
 *
 * <p>Test hooks besides the common ones: {@code POST /_sim/channels {"app_id","channel_id","private"}} registers a
 * notification channel of an app (its Xiaomi console's 消息分类管理); once an app has one, any other
 * {@code extra.channel_id} is refused. {@code POST /_sim/quota {"app_id","public_quota"}} sets the app's daily quota of
 * public and default-channel messages (unlimited until set).
 */
public class XiaomiSimulator extends ProviderSimulator {

    /** Java server SDK doc, Sender.send(Message, List regIds): "regIds的个数不得超过1000个". */
    static final int MAX_REGIDS = 1000;
    /** 服务端HTTP API 表1-1: title "长度小于50", description "长度小于128", "一个中英文字符均计算为1". */
    static final int TITLE_LIMIT = 50;
    static final int DESCRIPTION_LIMIT = 128;
    /** Java server SDK doc, Message.Builder payload: "长度小于4K". */
    static final int PAYLOAD_LIMIT_BYTES = 4096;

    private final Map<String, String> apps = new ConcurrentHashMap<>(); // package name -> AppSecret
    private final Map<String, Map<String, Boolean>> channels = new ConcurrentHashMap<>(); // package -> id -> private
    private final Map<String, PublicQuota> quotas = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    /** 推送消息限制说明: public (公信) and default-channel messages count against a daily quota, counted when delivered. */
    private static final class PublicQuota {
        final long quota;
        final AtomicLong acked = new AtomicLong();

        PublicQuota(long quota) {
            this.quota = quota;
        }
    }

    @Override
    public String channel() {
        return "vendor_b";
    }

    /** Registers an app (app_id = package name, app_secret = AppSecret): its requests must carry that key. */
    @Override
    public void registerApp(String appId, String appKey, String appSecret, String certificate) {
        apps.put(appId, appSecret == null ? "" : appSecret);
    }

    /** Registers a notification channel of an app: a private-message (私信) or public-message (公信) one. */
    public void registerChannel(String packageName, String channelId, boolean privateMessages) {
        channels.computeIfAbsent(packageName, p -> new ConcurrentHashMap<>()).put(channelId, privateMessages);
    }

    /** Sets the app's daily quota of public and default-channel deliveries, none spent yet. */
    public void setPublicQuota(String packageName, long quota) {
        quotas.put(packageName, new PublicQuota(quota));
    }

    @Override
    public void reset() {
        super.reset();
        apps.clear();
        channels.clear();
        quotas.clear();
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
        router.post("/_sim/channels").handler(ctx -> {
            JsonObject body = ctx.body().asJsonObject();
            registerChannel(body.getString("app_id"), body.getString("channel_id"), body.getBoolean("private", true));
            json(ctx, 200, new JsonObject().put("ok", true));
        });
        router.post("/_sim/quota").handler(ctx -> {
            JsonObject body = ctx.body().asJsonObject();
            setPublicQuota(body.getString("app_id"), body.getLong("public_quota"));
            json(ctx, 200, new JsonObject().put("ok", true));
        });
    }

    private void send(RoutingContext ctx) {
        MultiMap form = ctx.request().formAttributes();
        String auth = ctx.request().getHeader("Authorization");
        String key = auth != null && auth.startsWith("key=") ? auth.substring(4) : null;
        String pkg = form.get("restricted_package_name");
        String registered = pkg == null ? null : apps.get(pkg);
        // 服务端HTTP API: "Authorization: key=<APP_SECRET>"; 错误码 21301 认证失败
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
        if (fault == Faults.Kind.QUOTA_SPENT) {
            reply(ctx, 200, quotaExceeded(0, 0));
            return;
        }
        Refusal refusal = refusal(form, pkg);
        if (refusal != null) {
            reply(ctx, 200, error(refusal.code(), refusal.reason(), description(refusal.code())));
            return;
        }
        String channelId = form.get("extra.channel_id");
        PublicQuota quota = isPrivate(pkg, channelId) ? null : quotas.get(pkg);
        // 推送消息限制说明 FAQ 3.1: over the day's quota, "错误码200001, 原因: exceed quota, quota: 当日可以下发总数,
        // have acked: 当日已送达数"
        if (quota != null && quota.acked.get() >= quota.quota) {
            reply(ctx, 200, quotaExceeded(quota.quota, quota.acked.get()));
            return;
        }
        StringJoiner bad = new StringJoiner(",");
        StringJoiner good = new StringJoiner(",");
        int accepted = 0;
        for (String t : form.get("registration_id").split(",")) {
            String token = t.trim();
            if (token.isEmpty()) {
                continue;
            }
            if (Faults.isInvalid(token)) {
                bad.add(token);
            } else {
                good.add(token);
                recorder().delivered(token, form.get("payload"));
                accepted++;
            }
        }
        if (accepted == 0) {
            reply(ctx, 200, error(20301, "No valid targets!", "发送消息失败"));
            return;
        }
        if (quota != null) {
            quota.acked.addAndGet(accepted);
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

    /** Xiaomi's code and reason for a request it refuses. */
    private record Refusal(int code, String reason) {}

    /** The first rule the request breaks, or null. */
    private Refusal refusal(MultiMap form, String pkg) {
        String regIds = form.get("registration_id");
        // 服务端HTTP API 表1-1: registration_id and restricted_package_name; 错误码 10016 缺失必选参数
        if (blank(regIds) || blank(pkg)) {
            return new Refusal(10016, "Missing required parameter");
        }
        if (regIds.split(",").length > MAX_REGIDS) {
            return new Refusal(10017, "too many registration ids");
        }
        // 关于停止提供透传消息下发的公告 (推送服务目录, dev.mi.com pId=1529): pass-through messages stopped on 2022-09-12.
        // Unverified: which code Xiaomi answers them with now; 10017 参数值非法 stands in.
        if ("1".equals(form.get("pass_through"))) {
            return new Refusal(10017, "pass-through messages are no longer delivered");
        }
        String title = form.get("title");
        String description = form.get("description");
        // 表1-1: title and description "通知栏消息必填", "不允许全是空白字符", "长度小于50" / "长度小于128" with every
        // character counting 1 (code points here)
        if (title == null || description == null) {
            return new Refusal(10016, "title and description are required");
        }
        if (title.isBlank() || description.isBlank()) {
            return new Refusal(10017, "title and description must not be blank");
        }
        if (title.codePointCount(0, title.length()) >= TITLE_LIMIT) {
            return new Refusal(10017, "title must be shorter than " + TITLE_LIMIT);
        }
        if (description.codePointCount(0, description.length()) >= DESCRIPTION_LIMIT) {
            return new Refusal(10017, "description must be shorter than " + DESCRIPTION_LIMIT);
        }
        // 自定义通知消息下线的通知 (2024-09-30): only predefined click actions, extra.notify_effect 1, 2 (with
        // extra.intent_uri) or 3 (with extra.web_uri). Unverified: the code of the refusal; 10017 stands in.
        String effect = form.get("extra.notify_effect");
        if (!("1".equals(effect) || "2".equals(effect) && !blank(form.get("extra.intent_uri"))
                || "3".equals(effect) && !blank(form.get("extra.web_uri")))) {
            return new Refusal(10017,
                    "extra.notify_effect must be 1, 2 with extra.intent_uri or 3 with extra.web_uri");
        }
        // 表1-1 notify_id: "要求notify_id为取值在0~2147483647的整数"; 错误码 10017 参数值非法 (unverified that this is
        // the code answered)
        String notifyId = form.get("notify_id");
        if (notifyId != null && !validNotifyId(notifyId)) {
            return new Refusal(10017, "notify_id must be an integer 0..2147483647");
        }
        // Java SDK doc, payload "长度小于4K"; 错误码 65009 消息内容太长 (unverified that this is the code answered)
        String payload = form.get("payload");
        if (payload != null && payload.getBytes(StandardCharsets.UTF_8).length >= PAYLOAD_LIMIT_BYTES) {
            return new Refusal(65009, "payload too long");
        }
        // 推送消息分类新规 / 模板接入指南: extra.channel_id is a channel the app registered; 错误码 27001 channel相关信息不匹配
        String channelId = form.get("extra.channel_id");
        Map<String, Boolean> registered = channels.get(pkg);
        if (channelId != null && registered != null && !registered.containsKey(channelId)) {
            return new Refusal(27001, "channel " + channelId + " is not registered for " + pkg);
        }
        return null;
    }

    private static boolean validNotifyId(String value) {
        if (!value.matches("\\d{1,10}")) {
            return false;
        }
        return Long.parseLong(value) <= Integer.MAX_VALUE;
    }

    /** A private-message (私信) channel: not counted against the public quota (推送消息限制说明: 私信消息不限量). */
    private boolean isPrivate(String pkg, String channelId) {
        Map<String, Boolean> registered = channels.get(pkg);
        return channelId != null && registered != null && Boolean.TRUE.equals(registered.get(channelId));
    }

    /** The Chinese description Xiaomi sends with a code (服务端错误码参考). */
    private static String description(int code) {
        return switch (code) {
            case 10016 -> "缺失必选参数";
            case 10017 -> "参数值非法";
            case 27001 -> "channel相关信息不匹配";
            case 65009 -> "消息内容太长";
            default -> "发送消息失败";
        };
    }

    /** Xiaomi's answer once the day's quota is spent: it says nothing of when to retry (tomorrow). */
    private static JsonObject quotaExceeded(long quota, long acked) {
        return error(200001, "exceed quota, quota: " + quota + ", have acked: " + acked, "发送消息失败");
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
