package io.imcore.pushworker.channel.meizu;

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
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Meizu Flyme push server API (docs/channels/meizu.md; Meizu's PushAPI README).
 *
 * <p>No auth token: every request is a form POST signed with {@code sign = md5(sorted k=v of all parameters +
 * appSecret)}. Notifications go to {@code /garcia/api/server/push/varnished/pushByPushId}, cmd (pass-through) to
 * {@code /garcia/api/server/push/unvarnished/pushByPushId}, up to 100 pushIds a request. The answer's {@code value}
 * maps a code to the pushIds that failed with it; the others were accepted.
 */
public class MeizuAdapter extends BatchAdapter {

    static final String NOTIFICATION_PATH = "/garcia/api/server/push/varnished/pushByPushId";
    static final String PASS_THROUGH_PATH = "/garcia/api/server/push/unvarnished/pushByPushId";

    /** PushAPI README, noticeBarInfo: title 1~32 characters, content 1~100 characters. */
    public static final int TITLE_MAX = 32;
    public static final int CONTENT_MAX = 100;
    /** PushAPI README, pass-through messageJson: content within 2000 bytes. */
    public static final int PASS_THROUGH_CONTENT_MAX_BYTES = 2000;
    /** PushAPI README, pushTimeInfo.validTime: 1 to 72 hours, default 24. */
    static final int VALID_HOURS_MIN = 1;
    static final int VALID_HOURS_MAX = 72;
    static final int VALID_HOURS_DEFAULT = 24;
    /** PushAPI README, extra.callback: at most 128 bytes. */
    static final int CALLBACK_MAX_BYTES = 128;
    /** PushAPI README, pushByPushId: at most 100 pushIds a request since 2023-08-21 (commit afe9ff0; 1000 before). */
    static final int MAX_TARGETS = 100;

    /** Our per-channel option carrying Meizu's noticeBarInfo.noticeMsgType. */
    public static final String NOTICE_MSG_TYPE = "notice_msg_type";
    /** noticeMsgType 0: public message (公信), capped per device and day. Meizu's default when absent. */
    public static final int PUBLIC_MESSAGE = 0;
    /** noticeMsgType 1: private message (私信), not capped: an IM product's chat pushes, our default. */
    public static final int PRIVATE_MESSAGE = 1;

    static final String NO_TEXT = "vendor_e: no title and no body";
    static final String NO_PASS_THROUGH_CONTENT = "vendor_e: pass-through needs ext or a body";

    public MeizuAdapter(ChannelSettings settings) {
        super(Channel.MEIZU, MAX_TARGETS, settings);
    }

    @Override
    protected List<Outcome> sendBatch(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        boolean passThrough = notification.isPassThrough();
        String refusal = passThrough ? passThroughRefusal(notification) : notificationRefusal(notification, credentials);
        if (refusal != null) {
            return VendorHttp.all(n, Outcome.failed(refusal));
        }
        ObjectNode message = passThrough ? passThroughMessage(notification)
                : notificationMessage(notification, credentials);
        List<String> pushIds = new ArrayList<>(n);
        deliveries.forEach(d -> pushIds.add(d.token()));
        Map<String, String> params = new TreeMap<>();
        params.put("appId", credentials.providerAppId() == null ? "" : credentials.providerAppId().trim());
        params.put("pushIds", String.join(",", pushIds));
        params.put("messageJson", message.toString());
        params.put("sign", sign(params, credentials.appSecret() == null ? "" : credentials.appSecret().trim()));

        HttpRequest request = HttpRequest.newBuilder(VendorHttp.resolve(settings.baseUrl(credentials.environment()),
                        passThrough ? PASS_THROUGH_PATH : NOTIFICATION_PATH))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(params), StandardCharsets.UTF_8))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return VendorHttp.all(n, Outcome.retry("interrupted"));
        } catch (IOException | RuntimeException e) {
            return VendorHttp.all(n, Outcome.retry("vendor_e_io " + e));
        }
        if (response.statusCode() != 200) {
            return VendorHttp.all(n, Outcome.retry("vendor_e_http_" + response.statusCode(),
                    VendorHttp.retryAfter(response)));
        }
        JsonNode answer = VendorHttp.json(response.body());
        if (answer == null || !answer.isObject()) {
            return VendorHttp.all(n, Outcome.retry("vendor_e_bad_answer"));
        }
        String code = answer.path("code").asText("");
        if (!"200".equals(code)) {
            return VendorHttp.all(n, requestFailure(code, answer.path("message").asText("")));
        }
        return perPushId(answer.get("value"), pushIds);
    }

    /** Outcomes from the answer's value map (code -> pushIds that failed with it); the pushIds not in it went out. */
    private static List<Outcome> perPushId(JsonNode value, List<String> pushIds) {
        Map<String, Outcome> failed = new HashMap<>();
        if (value != null && value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                Outcome outcome = targetFailure(entry.getKey());
                for (JsonNode pushId : entry.getValue()) {
                    failed.put(pushId.asText(), outcome);
                }
            }
        }
        List<Outcome> outcomes = new ArrayList<>(pushIds.size());
        for (String pushId : pushIds) {
            outcomes.add(failed.getOrDefault(pushId, Outcome.ACCEPTED));
        }
        return outcomes;
    }

    /** A per-pushId code of the answer's value map (PushAPI README "map部分code定义"; SDK PushResponseCode). */
    static Outcome targetFailure(String code) {
        String reason = "vendor_e_" + code;
        return switch (code) {
            // 110002 pushId unsubscribed, 110003 pushId illegal, 110005 alias unsubscribed,
            // 110010 pushId no longer valid (the app's notifications switched off): the token is dead here
            case "110002", "110003", "110005", "110010" -> Outcome.rejected(reason);
            // the device's daily cap of public messages (公信) is reached: sending again today is refused as well
            case "110011" -> Outcome.failed(reason + " daily public-message cap of the device (notice_msg_type 0)");
            // no permission, refused by the server: the app may not send this
            case "201" -> Outcome.failed(reason + " no permission");
            // pushing faster than the app's configured rate
            case "518" -> Outcome.retry(reason, Duration.ofSeconds(1));
            // folded: more than 5 messages to the device within a minute
            case "520" -> Outcome.retry(reason, Duration.ofMinutes(1));
            // 501/513 push failed, 519 overloaded, anything else
            default -> Outcome.retry(reason);
        };
    }

    /** A code other than 200 for the whole request (PushAPI README "Api returnCode定义"; SDK ErrorCode). */
    static Outcome requestFailure(String code, String message) {
        String reason = "vendor_e_" + code + (message.isEmpty() ? "" : " " + message);
        return switch (code) {
            // the app pushes too fast
            case "110010" -> Outcome.retry(reason, Duration.ofSeconds(1));
            // 1005 parameter error, 110004 parameter empty: this message is refused whatever the retry
            case "1005", "110004",
                    // 110000 appId, 110001 appKey, 110031 packageName, 110033 appSecret not valid; 110009 blacklisted
                    "110000", "110001", "110031", "110033", "110009",
                    // 110019 the app's daily push count, 110051 the app's count limit, 110053 pass-through limit
                    "110019", "110051", "110053" -> Outcome.failed(reason);
            // 1006 sign refused: credentials refused, retried like every channel's (a re-upload is read within
            // credentials-ttl); 500 other error, 1001 system error, 1003 busy, unknown codes
            default -> Outcome.retry(reason);
        };
    }

    // ---- messages ----

    /** Why Meizu would refuse this notification for every device, or null. */
    static String notificationRefusal(Notification notification, Credentials credentials) {
        if (notification.title().isEmpty() && content(notification).isEmpty()) {
            return NO_TEXT;
        }
        JsonNode type = notification.option(Channel.MEIZU, credentials, NOTICE_MSG_TYPE);
        if (type != null && noticeMsgType(type) == null) {
            return "vendor_e: notice_msg_type must be 0 (public) or 1 (private), got " + type;
        }
        return null;
    }

    /** noticeMsgType of an option value, or null when it is not 0 or 1. */
    private static Integer noticeMsgType(JsonNode value) {
        if (value.isIntegralNumber() && (value.asInt() == PUBLIC_MESSAGE || value.asInt() == PRIVATE_MESSAGE)) {
            return value.asInt();
        }
        return null;
    }

    /** The notification's content: the body, else big_text, else the title (Meizu requires 1..100 characters). */
    private static String content(Notification notification) {
        if (!notification.body().isEmpty()) {
            return notification.body();
        }
        String bigText = notification.bigText();
        return bigText != null ? bigText : notification.title();
    }

    ObjectNode notificationMessage(Notification notification, Credentials credentials) {
        ObjectNode settingsOfChannel = notification.channelSettings(Channel.MEIZU);
        ObjectNode message = VendorHttp.JSON.createObjectNode();
        String content = content(notification);
        String title = notification.title().isEmpty() ? content : notification.title();
        JsonNode type = notification.option(Channel.MEIZU, credentials, NOTICE_MSG_TYPE);
        ObjectNode bar = message.putObject("noticeBarInfo");
        bar.put("noticeMsgType", type == null ? PRIVATE_MESSAGE : noticeMsgType(type));
        bar.put("noticeBarType", 0);
        bar.put("title", VendorHttp.truncate(title, TITLE_MAX));
        bar.put("content", VendorHttp.truncate(content, CONTENT_MAX));
        ObjectNode expand = message.putObject("noticeExpandInfo");
        String bigText = notification.bigText();
        if (bigText != null) {
            expand.put("noticeExpandType", 1);
            expand.put("noticeExpandContent", bigText);
        } else {
            expand.put("noticeExpandType", 0);
        }
        ObjectNode click = message.putObject("clickTypeInfo");
        String intent = Notification.text(settingsOfChannel, "intent");
        if ("intent".equals(Notification.text(settingsOfChannel, "click_action")) && intent != null) {
            if (VendorHttp.isUri(intent)) { // intent:, a scheme of the app, http:
                click.put("clickType", 2);
                click.put("url", intent);
            } else { // pkg.Activity
                click.put("clickType", 1);
                click.put("activity", intent);
            }
        } else {
            click.put("clickType", 0);
        }
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            click.set("parameters", ext.deepCopy());
        }
        message.set("pushTimeInfo", pushTimeInfo(notification));
        ObjectNode advance = message.putObject("advanceInfo");
        advance.put("suspend", 1);
        advance.put("clearNoticeBar", 1);
        ObjectNode alerts = advance.putObject("notificationType");
        alerts.put("vibrate", 1);
        alerts.put("lights", 1);
        alerts.put("sound", 1); // on/off only: Meizu plays the system sound, no per-message sound file
        String collapseKey = notification.collapseKey();
        if (collapseKey != null) {
            advance.put("notifyKey", notifyKey(collapseKey));
        }
        settings.receiptUrl(credentials).ifPresent(url -> {
            String callback = url.toString();
            if (Utf8Text.bytes(callback) <= CALLBACK_MAX_BYTES) {
                ObjectNode extra = message.putObject("extra");
                extra.put("callback", callback);
                extra.put("callback.param", Long.toString(notification.taskId()));
                extra.put("callback.type", 1); // delivery receipts only
            }
        });
        return message;
    }

    /** Why Meizu would refuse this pass-through message for every device, or null. */
    static String passThroughRefusal(Notification notification) {
        String content = passThroughContent(notification);
        if (content.isEmpty()) {
            return NO_PASS_THROUGH_CONTENT;
        }
        if (Utf8Text.bytes(content) > PASS_THROUGH_CONTENT_MAX_BYTES) {
            return "vendor_e: pass-through ext over " + PASS_THROUGH_CONTENT_MAX_BYTES + " bytes";
        }
        return null;
    }

    /** ext as JSON text, else the body cut to the limit (a body is text we may cut, ext is data we may not). */
    private static String passThroughContent(Notification notification) {
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            return ext.toString();
        }
        int excess = Utf8Text.bytes(notification.body()) - PASS_THROUGH_CONTENT_MAX_BYTES;
        return excess > 0 ? Utf8Text.shorten(notification.body(), excess) : notification.body();
    }

    ObjectNode passThroughMessage(Notification notification) {
        ObjectNode message = VendorHttp.JSON.createObjectNode();
        if (!notification.title().isEmpty()) { // optional for pass-through, 1..32 when given
            message.put("title", VendorHttp.truncate(notification.title(), TITLE_MAX));
        }
        message.put("content", passThroughContent(notification));
        message.set("pushTimeInfo", pushTimeInfo(notification));
        return message;
    }

    private static ObjectNode pushTimeInfo(Notification notification) {
        ObjectNode time = VendorHttp.JSON.createObjectNode();
        time.put("offLine", 1);
        int hours = VALID_HOURS_DEFAULT;
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long seconds = end.asLong() - Instant.now().getEpochSecond();
            hours = (int) Math.max(VALID_HOURS_MIN, Math.min(VALID_HOURS_MAX, (seconds + 3599) / 3600));
        }
        time.put("validTime", hours);
        return time;
    }

    /** PushAPI advanceInfo.notifyKey: at most 8 characters of {@code [0-9A-Za-z_-]}. */
    static final int NOTIFY_KEY_MAX = 8;

    /**
     * advanceInfo.notifyKey of a collapse_key ("凡是带有此key的通知栏消息只会显示最后到达的一条"; at most 8 characters of
     * digits, letters, {@code _} and {@code -}): our keys are longer (up to 64 bytes), so every key is sent as the
     * first 48 bits of its SHA-256 in base64url, which is exactly 8 characters of that alphabet. The same key gives
     * the same notifyKey; two keys of one app share one with a chance of about 2^-48.
     */
    static String notifyKey(String collapseKey) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(collapseKey.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 6));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- signing ----

    /** md5 of the parameters sorted by name as {@code k=v} (raw values, not URL-encoded) followed by the secret. */
    public static String sign(Map<String, String> params, String appSecret) {
        StringBuilder base = new StringBuilder();
        new TreeMap<>(params).forEach((k, v) -> {
            if (!"sign".equals(k)) {
                base.append(k).append('=').append(v);
            }
        });
        base.append(appSecret);
        try {
            return HexFormat.of().formatHex(
                    MessageDigest.getInstance("MD5").digest(base.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
