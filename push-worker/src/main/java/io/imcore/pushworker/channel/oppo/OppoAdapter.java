package io.imcore.pushworker.channel.oppo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.push.Channel;
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

/**
 * vendor_c: OPPO PUSH server API (docs/channels/vendor_c.md). {@code POST /server/v1/auth} with the App Key and a
 * SHA-256 signature over the MasterSecret gives an auth_token valid 24 hours; {@code POST
 * /server/v1/message/notification/unicast_batch} sends up to 1000 single-target messages in one request and answers
 * per message.
 */
public class OppoAdapter extends TokenBatchAdapter {

    static final int MAX_TOKENS = 1000;
    static final int TITLE_MAX = 50;
    static final int CONTENT_MAX = 200;
    static final int LONG_CONTENT_MAX = 128;
    static final int CALLBACK_PARAM_MAX = 100;
    static final long OFFLINE_TTL_MAX = 864_000; // 10 days
    static final String AUTH_PATH = "/server/v1/auth";
    static final String SEND_PATH = "/server/v1/message/notification/unicast_batch";
    static final int INVALID_AUTH_TOKEN = 11;
    static final int INVALID_REGISTRATION_ID = 10000;

    public OppoAdapter(ChannelSettings settings) {
        super(Channel.VENDOR_C, MAX_TOKENS, settings);
    }

    @Override
    protected List<Outcome> sendWithToken(Credentials credentials, String token, Notification notification,
            List<Delivery> deliveries) {
        int n = deliveries.size();
        String messages = messages(notification, deliveries);
        URI uri = VendorHttp.resolve(settings.baseUrl(credentials.environment()), SEND_PATH);
        for (int attempt = 0; ; attempt++) {
            HttpRequest request = HttpRequest.newBuilder(uri)
                    .timeout(settings.requestTimeout())
                    .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                    .header("auth_token", token)
                    .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(Map.of(
                            "auth_token", token, "messages", messages))))
                    .build();
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return VendorHttp.all(n, Outcome.retry("interrupted"));
            } catch (Exception e) {
                return VendorHttp.all(n, Outcome.retry("io: " + e));
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
                    return VendorHttp.all(n, authRetry(e));
                }
                continue;
            }
            return classify(response, json, code, deliveries);
        }
    }

    static List<Outcome> classify(HttpResponse<String> response, JsonNode json, int code, List<Delivery> deliveries) {
        int n = deliveries.size();
        if (code != 0) {
            // -1 unavailable, -2 flow control, 13 app call limited, 33 daily quota, others: retry later
            String reason = code == Integer.MIN_VALUE ? "http " + response.statusCode()
                    : code + " " + json.path("message").asText("");
            return VendorHttp.all(n, Outcome.retry(reason, VendorHttp.retryAfter(response)));
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
                continue;
            }
            if (item.hasNonNull("errorCode") && item.get("errorCode").asInt() != 0) {
                int error = item.get("errorCode").asInt();
                String why = error + " " + item.path("errorMessage").asText("");
                out.set(i, error == INVALID_REGISTRATION_ID ? Outcome.rejected(why) : Outcome.retry(why));
            }
        }
        return out;
    }

    String messages(Notification notification, List<Delivery> deliveries) {
        ObjectNode s = notification.channelSettings(Channel.VENDOR_C);
        ObjectNode n = VendorHttp.JSON.createObjectNode();
        n.put("title", VendorHttp.truncate(notification.title(), TITLE_MAX));
        String bigText = notification.bigText();
        if (bigText != null) {
            n.put("style", 2);
            n.put("content", VendorHttp.truncate(bigText, LONG_CONTENT_MAX));
        } else {
            n.put("style", 1);
            n.put("content", VendorHttp.truncate(notification.body(), CONTENT_MAX));
        }
        String intent = Notification.text(s, "intent");
        if ("intent".equals(Notification.text(s, "click_action")) && intent != null) {
            if (VendorHttp.isUri(intent)) {
                n.put("click_action_type", 5);
                n.put("click_action_url", intent);
            } else {
                n.put("click_action_type", 1);
                n.put("click_action_activity", intent);
            }
        } else {
            n.put("click_action_type", 0);
        }
        ObjectNode ext = notification.ext();
        if (!ext.isEmpty()) {
            n.put("action_parameters", ext.toString());
        }
        String channelId = Notification.text(s, "channel_id");
        if (channelId != null) {
            n.put("channel_id", channelId);
        }
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long now = System.currentTimeMillis();
            long endMillis = end.asLong() * 1000;
            n.put("show_time_type", 1);
            n.put("show_start_time", now);
            n.put("show_end_time", Math.max(now + 1000, endMillis));
            n.put("off_line", true);
            n.put("off_line_ttl", Math.min(OFFLINE_TTL_MAX, Math.max(1, (endMillis - now) / 1000)));
        }
        settings.receiptUrl().ifPresent(url -> {
            n.put("call_back_url", url.toString());
            n.put("call_back_parameter", VendorHttp.truncate(Long.toString(notification.taskId()),
                    CALLBACK_PARAM_MAX));
        });
        ArrayNode messages = VendorHttp.JSON.createArrayNode();
        for (Delivery d : deliveries) {
            ObjectNode m = messages.addObject();
            m.put("target_type", 2);
            m.put("target_value", d.token());
            m.set("notification", n);
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
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(form)))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new VendorTokenCache.AuthException("interrupted");
        } catch (Exception e) {
            throw new VendorTokenCache.AuthException("auth endpoint: " + e);
        }
        JsonNode json = VendorHttp.json(response.body());
        if (json == null || json.path("code").asInt(-1) != 0 || !json.path("data").hasNonNull("auth_token")) {
            throw new VendorTokenCache.AuthException("auth refused: http " + response.statusCode() + " "
                    + (json == null ? "" : json.path("code").asText() + " " + json.path("message").asText()));
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
