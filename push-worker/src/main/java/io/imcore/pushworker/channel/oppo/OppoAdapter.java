package io.imcore.pushworker.channel.oppo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.TokenBatchAdapter;
import io.imcore.pushworker.channel.http.VendorHttp;
import io.imcore.pushworker.channel.http.VendorTokenCache;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OPPO PUSH server API (docs/channels/oppo.md). {@code POST /server/v1/auth} with the App Key and a
 * SHA-256 signature over the MasterSecret gives an auth_token valid 24 hours; {@code POST
 * /server/v1/message/notification/unicast_batch} sends up to 1000 single-target notification messages in one request
 * and answers per message. Every message carries a category (通讯与服务 IM by default) and a notify_level.
 */
public class OppoAdapter extends TokenBatchAdapter {

    static final int MAX_TOKENS = 1000;
    // Lengths from the official SDK's Notification.validate (opush-server-sdk 1.1.0), which counts UTF-16 chars, and
    // OPPO's 通知栏消息 field table, which counts every character (emoji too) as one: the adapter cuts by UTF-16
    // chars, so both hold.
    static final int TITLE_MAX = 50;
    static final int CONTENT_MAX = 200;
    static final int LONG_CONTENT_MAX = 128;
    static final int CLICK_ACTION_MAX = 500;
    static final int CALLBACK_URL_MAX = 200;
    static final int CALLBACK_PARAM_MAX = 50;
    static final long OFFLINE_TTL_MIN = 3_600; // 1 hour
    static final long OFFLINE_TTL_DEFAULT = 86_400; // OPPO's own default is 1 hour: too short for a chat message
    static final long OFFLINE_TTL_MAX = 864_000; // 10 days
    static final String DEFAULT_CATEGORY = "IM";
    static final int DEFAULT_NOTIFY_LEVEL = 2; // notification bar + lock screen: allowed for every category
    static final String AUTH_PATH = "/server/v1/auth";
    static final String SEND_PATH = "/server/v1/message/notification/unicast_batch";
    static final int INVALID_AUTH_TOKEN = 11;
    static final int DAILY_LIMIT = 33;
    static final int INVALID_REGISTRATION_ID = 10000;
    /** Service unavailable, flow control, app call (QPS) limit: worth retrying. */
    static final Set<Integer> TRANSIENT = Set.of(-1, -2, 13);
    /**
     * The request or the app is refused whatever the device (opush-server-sdk ReturnCode.ErrorCode): wrong method,
     * version or encoding (12, 20-25), IP blacklisted, access denied, app disabled, no token, no API permission
     * (26-30), data missing or duplicate (31, 32), picture quota, missing or invalid arguments, invalid picture (34,
     * 40, 41, 51). Asking again cannot help.
     */
    static final Set<Integer> PERMANENT = Set.of(12, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 34, 40, 41,
            51);
    /** Auth answers that refuse the credentials themselves: missing or invalid app key or signature, app refused. */
    static final Set<Integer> CREDENTIALS_REFUSED = Set.of(14, 15, 16, 17, 26, 27, 28, 30);

    public OppoAdapter(ChannelSettings settings) {
        super(Channel.OPPO, MAX_TOKENS, settings);
        settings.receiptUrl().ifPresent(url -> {
            if (url.toString().length() > CALLBACK_URL_MAX) {
                throw new IllegalArgumentException("im.push.worker.channel.vendor_c.receipt-url is longer than OPPO's "
                        + CALLBACK_URL_MAX + " characters for call_back_url: " + url);
            }
        });
    }

    @Override
    protected List<Outcome> sendWithToken(Credentials credentials, String token, Notification notification,
            List<Delivery> deliveries) {
        int n = deliveries.size();
        if (notification.isPassThrough()) {
            // OPPO's server API sends notification-bar messages only: a cmd must not show up as a notification
            return VendorHttp.all(n, Outcome.failed("vendor_c_no_pass_through"));
        }
        ObjectNode body = notificationBody(notification, credentials);
        if (body == null) {
            return VendorHttp.all(n, Outcome.failed("no title and no body"));
        }
        String messages = messages(body, deliveries);
        URI uri = VendorHttp.resolve(settings.baseUrl(credentials.environment()), SEND_PATH);
        for (int attempt = 0; ; attempt++) {
            HttpRequest request = formPost(uri, FORM_UTF8,
                    VendorHttp.form(Map.of("auth_token", token, "messages", messages))).build();
            HttpResponse<String> response;
            try {
                response = exchange(request);
            } catch (Unanswered e) {
                return VendorHttp.all(n, Outcome.retry(e.reason(failure -> "io: " + failure)));
            }
            JsonNode json = VendorHttp.json(response.body());
            int code = json == null ? Integer.MIN_VALUE : json.path("code").asInt(Integer.MIN_VALUE);
            if (code == INVALID_AUTH_TOKEN || response.statusCode() == 401) {
                if (attempt > 0) {
                    return VendorHttp.all(n, Outcome.retry("11 invalid auth_token after refresh"));
                }
                try {
                    token = tokens.refresh(credentials, token);
                } catch (VendorTokenCache.AuthException e) {
                    return VendorHttp.all(n, authOutcome(e));
                }
                continue;
            }
            return classify(response, json, code, deliveries);
        }
    }

    static List<Outcome> classify(HttpResponse<String> response, JsonNode json, int code, List<Delivery> deliveries) {
        int n = deliveries.size();
        if (code != 0) {
            if (code == Integer.MIN_VALUE) {
                return VendorHttp.all(n, Outcome.retry("http " + response.statusCode(),
                        VendorHttp.retryAfter(response)));
            }
            return VendorHttp.all(n, outcome(code, json.path("message").asText(""), VendorHttp.retryAfter(response)));
        }
        Map<String, JsonNode> byRegId = new HashMap<>();
        for (JsonNode item : json.path("data")) {
            byRegId.putIfAbsent(item.path("registrationId").asText(), item);
        }
        List<Outcome> out = VendorHttp.all(n, Outcome.ACCEPTED);
        for (int i = 0; i < n; i++) {
            JsonNode item = byRegId.get(deliveries.get(i).token());
            if (item == null) {
                out.set(i, Outcome.retry("no result for the target"));
            } else if (item.hasNonNull("errorCode") && item.get("errorCode").asInt() != 0) {
                out.set(i, outcome(item.get("errorCode").asInt(), item.path("errorMessage").asText(""), null));
            }
        }
        return out;
    }

    /** What an OPPO return code (request-level {@code code} or a message's {@code errorCode}) means for a target. */
    static Outcome outcome(int code, String message, Duration retryAfter) {
        String reason = code + " " + message;
        if (code == INVALID_REGISTRATION_ID) {
            return Outcome.rejected(reason);
        }
        if (code == DAILY_LIMIT) {
            // the app's daily quota is spent: only tomorrow helps, so no retry holds a batch slot until then
            return Outcome.failed("daily quota spent: " + reason);
        }
        if (PERMANENT.contains(code)) {
            return Outcome.failed(reason);
        }
        return Outcome.retry(reason, retryAfter);
    }

    /**
     * The {@code notification} object all targets of this push share, or null when there is no text to show (OPPO
     * requires both title and content).
     */
    ObjectNode notificationBody(Notification notification, Credentials credentials) {
        String bigText = notification.bigText();
        String text = bigText != null ? bigText : notification.body();
        String title = notification.title();
        if (title.isBlank() && text.isBlank()) {
            return null;
        }
        // OPPO refuses an empty title or content: each falls back on the other
        if (title.isBlank()) {
            title = text;
        } else if (text.isBlank()) {
            text = title;
        }
        ObjectNode n = VendorHttp.JSON.createObjectNode();
        n.put("title", fit(title, TITLE_MAX));
        n.put("content", fit(text, bigText != null ? LONG_CONTENT_MAX : CONTENT_MAX));
        n.put("style", bigText != null ? 2 : 1);
        ObjectNode s = notification.channelSettings(Channel.OPPO);
        clickAction(n, s);
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            n.put("action_parameters", ext.toString());
        }
        String channelId = Notification.text(s, "channel_id");
        if (channelId != null) {
            n.put("channel_id", channelId);
        }
        n.put("off_line", true);
        n.put("off_line_ttl", offlineTtl(notification.message().get("show_end_time")));
        // the app's id and key lengthen the endpoint checked at start: a callback that does not fit is not asked for
        settings.receiptUrl(credentials).filter(url -> url.toString().length() <= CALLBACK_URL_MAX)
                .ifPresent(url -> {
            n.put("call_back_url", url.toString());
            n.put("call_back_parameter", fit(Long.toString(notification.taskId()), CALLBACK_PARAM_MAX));
        });
        JsonNode category = notification.option(Channel.OPPO, credentials, "category");
        n.put("category", category == null || category.asText().isBlank() ? DEFAULT_CATEGORY : category.asText());
        JsonNode level = notification.option(Channel.OPPO, credentials, "notify_level");
        n.put("notify_level", level != null && level.canConvertToInt() ? level.asInt() : DEFAULT_NOTIFY_LEVEL);
        // 通知栏消息 notify_id: a new message with the same id replaces the shown one (the conversation's id)
        Integer notifyId = notification.notifyId();
        if (notifyId != null) {
            n.put("notify_id", notifyId);
        }
        return n;
    }

    /**
     * click_action_type: 0 opens the app; an intent URI is type 5 (Intent scheme URL), a component
     * {@code <package>/<activity>} type 4 (an activity of the app, by class name). One longer than OPPO takes opens the
     * app instead.
     */
    private static void clickAction(ObjectNode n, ObjectNode settingsOfChannel) {
        String intent = Notification.text(settingsOfChannel, "intent");
        if ("intent".equals(Notification.text(settingsOfChannel, "click_action")) && intent != null) {
            if (VendorHttp.isUri(intent)) {
                if (intent.length() <= CLICK_ACTION_MAX) {
                    n.put("click_action_type", 5);
                    n.put("click_action_url", intent);
                    return;
                }
            } else {
                String activity = activityClass(intent);
                if (!activity.isEmpty() && activity.length() <= CLICK_ACTION_MAX) {
                    n.put("click_action_type", 4);
                    n.put("click_action_activity", activity);
                    return;
                }
            }
        }
        n.put("click_action_type", 0);
    }

    /** The activity class of {@code <package>/<activity>[anything]} ({@code .Name} is relative to the package). */
    static String activityClass(String intent) {
        int slash = intent.indexOf('/');
        String pkg = slash < 0 ? "" : intent.substring(0, slash);
        String rest = intent.substring(slash + 1);
        int end = 0;
        while (end < rest.length() && (Character.isJavaIdentifierPart(rest.charAt(end)) || rest.charAt(end) == '.')) {
            end++;
        }
        String name = rest.substring(0, end);
        return name.startsWith(".") ? pkg + name : name;
    }

    /** Seconds until show_end_time (else a day), within OPPO's 1 hour to 10 days. */
    static long offlineTtl(JsonNode showEndTime) {
        long ttl = OFFLINE_TTL_DEFAULT;
        if (showEndTime != null && showEndTime.canConvertToLong()) {
            ttl = showEndTime.asLong() - System.currentTimeMillis() / 1000;
        }
        return Math.min(OFFLINE_TTL_MAX, Math.max(OFFLINE_TTL_MIN, ttl));
    }

    /** At most {@code max} UTF-16 chars, never splitting a surrogate pair. */
    static String fit(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isLowSurrogate(text.charAt(max)) ? max - 1 : max;
        return text.substring(0, end);
    }

    private static String messages(ObjectNode notificationBody, List<Delivery> deliveries) {
        ArrayNode messages = VendorHttp.JSON.createArrayNode();
        for (Delivery d : deliveries) {
            ObjectNode m = messages.addObject();
            m.put("target_type", 2);
            m.put("target_value", d.token());
            m.set("notification", notificationBody);
        }
        return messages.toString();
    }

    @Override
    protected VendorTokenCache.Token fetchToken(Credentials credentials) throws VendorTokenCache.AuthException {
        URI uri = settings.authUrl().map(u -> VendorHttp.endpoint(u, AUTH_PATH))
                .orElseGet(() -> VendorHttp.resolve(settings.baseUrl(credentials.environment()), AUTH_PATH));
        String appKey = credentials.appKey() == null ? "" : credentials.appKey();
        String timestamp = Long.toString(System.currentTimeMillis());
        Map<String, String> form = new LinkedHashMap<>();
        form.put("app_key", appKey);
        form.put("timestamp", timestamp);
        form.put("sign", sign(appKey, timestamp, credentials.appSecret() == null ? "" : credentials.appSecret()));
        HttpResponse<String> response;
        try {
            response = exchange(formPost(uri, FORM_UTF8, VendorHttp.form(form)).build());
        } catch (Unanswered e) {
            throw new VendorTokenCache.AuthException(e.reason(failure -> "auth endpoint: " + failure));
        }
        JsonNode json = VendorHttp.json(response.body());
        if (json == null || json.path("code").asInt(-1) != 0 || !json.path("data").hasNonNull("auth_token")) {
            int code = json == null ? Integer.MIN_VALUE : json.path("code").asInt(Integer.MIN_VALUE);
            throw new VendorTokenCache.AuthException("auth refused: http " + response.statusCode() + " "
                    + (json == null ? "" : json.path("code").asText() + " " + json.path("message").asText()),
                    CREDENTIALS_REFUSED.contains(code));
        }
        return new VendorTokenCache.Token(json.path("data").get("auth_token").asText(), Duration.ofHours(24));
    }

    /** sha256(app_key + timestamp + master_secret), lower-case hex. */
    public static String sign(String appKey, String timestamp, String masterSecret) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest((appKey + timestamp + masterSecret)
                    .getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
