package io.imcore.pushworker.channel.xiaomi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.Utf8Text;
import io.imcore.pushworker.channel.http.BatchAdapter;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Xiaomi (Mi) push server API (docs/channels/xiaomi.md). {@code POST {base}/v3/message/regid},
 * form-encoded, {@code Authorization: key=<AppSecret>}, up to 1000 comma-joined regIds per request, one request per
 * send. The AppSecret never expires, so there is no token to cache or refresh. Only notification-bar messages:
 * Xiaomi stopped delivering pass-through messages, so {@code cmd} fails at once.
 */
public class XiaomiAdapter extends BatchAdapter {

    /** Java server SDK doc, Sender.send(Message, List regIds): "regIds的个数不得超过1000个". */
    static final int MAX_TOKENS = 1000;
    /** 服务端HTTP API 表1-1: title "长度小于50", description "长度小于128", each character counting 1. */
    static final int TITLE_MAX = 49;
    static final int DESCRIPTION_MAX = 127;
    /** Java server SDK doc, Message.Builder payload: "长度小于4K" (counted here in UTF-8 bytes, the stricter reading). */
    static final int PAYLOAD_MAX_BYTES = 4095;
    static final String PATH = "/v3/message/regid";
    static final String NO_TEXT = "no title and no body";
    static final String PASS_THROUGH_STOPPED = "cmd: Xiaomi stopped delivering pass-through messages on 2022-09-12";
    static final String PAYLOAD_TOO_LARGE = "ext: over Xiaomi's payload limit of " + PAYLOAD_MAX_BYTES + " bytes";

    /**
     * Error codes (服务端错误码参考; SDK ErrorCode) that say "busy, try again": -1 未知错误, 1 内部错误, 10001 系统错误,
     * 10002 系统繁忙, 10003 远程服务错误, 10009 系统繁忙, 10010 任务超时, 10011 RPC错误, 20607 DB错误,
     * 26003 消息Push内部调用失败, 65029 远程服务异常.
     */
    private static final Set<Integer> BUSY = Set.of(-1, 1, 10001, 10002, 10003, 10009, 10010, 10011, 20607, 26003,
            65029);
    /** Request frequency answers (10022..10024 per IP/user, 10027 per app): a short wait helps. */
    private static final Set<Integer> TOO_FREQUENT = Set.of(10022, 10023, 10024, 10027);
    /** The static AppSecret was refused (21301 认证失败, 21302 token认证失败): retried like any refused credentials. */
    private static final Set<Integer> AUTH = Set.of(21301, 21302);
    /**
     * The day's quota is spent (10034 应用当日发送消息数量过多; 200001 "exceed quota", 推送消息限制说明 FAQ 3.1): no use
     * retrying before tomorrow.
     */
    private static final Set<Integer> DAILY_QUOTA = Set.of(10034, 200001);
    /** 20301 发送消息失败: with reason "No valid targets!" every regId of the request is invalid. */
    private static final int SEND_FAILED = 20301;

    public XiaomiAdapter(ChannelSettings settings) {
        super(Channel.XIAOMI, MAX_TOKENS, settings);
    }

    @Override
    protected List<Outcome> sendBatch(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        String unsendable = unsendable(notification);
        if (unsendable != null) {
            return VendorHttp.all(n, Outcome.failed(unsendable));
        }
        URI uri = VendorHttp.resolve(settings.baseUrl(credentials.environment()), PATH);
        HttpRequest request = formPost(uri, FORM_UTF8, VendorHttp.form(fields(credentials, notification, deliveries)))
                .header("Authorization", "key=" + (credentials.appSecret() == null ? "" : credentials.appSecret()))
                .build();
        try {
            return classify(exchange(request), deliveries);
        } catch (Unanswered e) {
            return VendorHttp.all(n, Outcome.retry(e.reason(failure -> "io: " + failure)));
        }
    }

    /** Why Xiaomi would refuse this message whatever the device, or null when it can be sent. */
    static String unsendable(Notification notification) {
        if (notification.isPassThrough()) {
            return PASS_THROUGH_STOPPED;
        }
        if (Texts.of(notification) == null) {
            return NO_TEXT;
        }
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty() && Utf8Text.bytes(ext.toString()) > PAYLOAD_MAX_BYTES) {
            return PAYLOAD_TOO_LARGE;
        }
        return null;
    }

    static List<Outcome> classify(HttpResponse<String> response, List<Delivery> deliveries) {
        int n = deliveries.size();
        JsonNode json = VendorHttp.json(response.body());
        if (json == null || !json.has("code")) {
            // no answer of the API (a 5xx of a proxy, an outage page): the SDK's retry handler retries HTTP 5xx too
            return VendorHttp.all(n, Outcome.retry("http " + response.statusCode(), VendorHttp.retryAfter(response)));
        }
        int code = json.path("code").asInt(-1);
        String reason = code + " " + json.path("reason").asText("");
        if (code == 0) {
            return accepted(json, deliveries);
        }
        if (code == SEND_FAILED && reason.toLowerCase().contains("no valid targets")) {
            return VendorHttp.all(n, Outcome.rejected(reason));
        }
        Duration after = VendorHttp.retryAfter(response);
        if (BUSY.contains(code) || TOO_FREQUENT.contains(code) || code == SEND_FAILED) {
            return VendorHttp.all(n, Outcome.retry(reason, after));
        }
        if (AUTH.contains(code)) {
            return VendorHttp.all(n, Outcome.retry("auth " + reason, after));
        }
        if (DAILY_QUOTA.contains(code)) {
            return VendorHttp.all(n, Outcome.failed("daily quota spent: " + reason));
        }
        // every other code of the table is a refusal of this request or app (parameters, package name, app
        // revoked or blacklisted, no permission, channel_id not the app's): sending it again changes nothing
        return VendorHttp.all(n, Outcome.failed(reason));
    }

    private static List<Outcome> accepted(JsonNode json, List<Delivery> deliveries) {
        Set<String> bad = new HashSet<>();
        for (String t : json.path("data").path("bad_regids").asText("").split(",")) {
            if (!t.isBlank()) {
                bad.add(t.trim());
            }
        }
        List<Outcome> out = VendorHttp.all(deliveries.size(), Outcome.ACCEPTED);
        for (int i = 0; i < deliveries.size(); i++) {
            if (bad.contains(deliveries.get(i).token())) {
                out.set(i, Outcome.rejected("bad_regids"));
            }
        }
        return out;
    }

    /** The form of a sendable notification (see {@link #unsendable}). */
    Map<String, String> fields(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        Map<String, String> f = new LinkedHashMap<>();
        StringJoiner regIds = new StringJoiner(",");
        deliveries.forEach(d -> regIds.add(d.token()));
        f.put("registration_id", regIds.toString());
        f.put("restricted_package_name", credentials.providerAppId());
        Texts texts = Texts.of(notification);
        f.put("pass_through", "0");
        f.put("title", texts.title());
        f.put("description", texts.description());
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            f.put("payload", ext.toString());
        }
        f.put("notify_type", "-1");
        // the same notify_id replaces the shown notification (表1-1: an integer 0..2147483647): the conversation's id
        // when push-service set one, else one per task
        Integer notifyId = notification.notifyId();
        f.put("notify_id", notifyId != null ? notifyId.toString() : Long.toString(notification.taskId() & 0x7fffffffL));
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = Math.max(1000, end.asLong() * 1000 - System.currentTimeMillis());
            f.put("time_to_live", Long.toString(ttl));
        }
        if (notification.bigText() != null) {
            f.put("extra.notification_style_type", "1");
        }
        ObjectNode s = notification.channelSettings(Channel.XIAOMI);
        String intent = Notification.text(s, "intent");
        // a predefined click action is required since 2024-09-30 (自定义通知消息下线的通知)
        if ("intent".equals(Notification.text(s, "click_action")) && intent != null) {
            f.put("extra.notify_effect", "2");
            f.put("extra.intent_uri", intent);
        } else {
            f.put("extra.notify_effect", "1");
        }
        String sound = Notification.text(s, "sound");
        if (sound != null) {
            f.put("extra.sound_uri", sound.contains("://") ? sound
                    : "android.resource://" + credentials.providerAppId() + "/raw/" + sound);
        }
        // the app's registered notification category (推送消息分类新规): without one Xiaomi uses its default
        // channel, capped at one message per device and day
        JsonNode channelId = notification.option(Channel.XIAOMI, credentials, "channel_id");
        if (channelId != null && !channelId.asText().isBlank()) {
            f.put("extra.channel_id", channelId.asText());
        }
        settings.receiptUrl(credentials).ifPresent(url -> {
            f.put("extra.callback", url.toString());
            f.put("extra.callback.param", Long.toString(notification.taskId()));
            f.put("extra.callback.type", "1");
        });
        return f;
    }

    /**
     * Title and description as Xiaomi requires them: both present and not blank (服务端HTTP API 表1-1, "不允许全是空白字符",
     * "通知栏消息必填"), so each fills the other when empty; cut to the limits.
     */
    record Texts(String title, String description) {

        /** The texts, or null when the message has no text at all. */
        static Texts of(Notification notification) {
            String title = notification.title().strip();
            String bigText = notification.bigText() == null ? "" : notification.bigText().strip();
            String body = bigText.isEmpty() ? notification.body().strip() : bigText;
            if (title.isEmpty() && body.isEmpty()) {
                return null;
            }
            return new Texts(cut(title.isEmpty() ? body : title, TITLE_MAX),
                    cut(body.isEmpty() ? title : body, DESCRIPTION_MAX));
        }

        /**
         * At most {@code max} UTF-16 units, never half a surrogate pair: within the limit whether Xiaomi counts
         * characters as code points or as Java chars.
         */
        static String cut(String text, int max) {
            if (text.length() <= max) {
                return text;
            }
            int end = Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max;
            return text.substring(0, end);
        }
    }
}
