package io.imcore.pushworker.channel.meizu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.push.Channel;
import io.imcore.pushworker.channel.ChannelAdapter;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * vendor_e: Meizu Flyme push server API (docs/channels/vendor_e.md).
 *
 * <p>No auth token: every request is a form POST signed with {@code sign = md5(sorted k=v of all parameters +
 * appSecret)}. Notifications go to {@code /garcia/api/server/push/varnished/pushByPushId}, cmd (pass-through) to
 * {@code /garcia/api/server/push/unvarnished/pushByPushId}, up to 1000 pushIds a request. The answer's {@code value}
 * maps a code to the pushIds that failed with it; the others were accepted.
 */
public class MeizuAdapter implements ChannelAdapter {

    static final String NOTIFICATION_PATH = "/garcia/api/server/push/varnished/pushByPushId";
    static final String PASS_THROUGH_PATH = "/garcia/api/server/push/unvarnished/pushByPushId";

    public static final int TITLE_MAX = 32;
    public static final int CONTENT_MAX = 100;
    /** Pass-through content, in UTF-8 bytes. */
    public static final int PASS_THROUGH_CONTENT_MAX_BYTES = 2000;
    static final int VALID_HOURS_MIN = 1;
    static final int VALID_HOURS_MAX = 72;
    static final int VALID_HOURS_DEFAULT = 24;
    static final int CALLBACK_MAX_BYTES = 128;
    static final int MAX_TARGETS = 1000;

    private final ChannelSettings settings;
    private final HttpClient http;
    private final ObjectMapper mapper = new ObjectMapper();

    public MeizuAdapter(ChannelSettings settings) {
        this.settings = settings;
        this.http = VendorHttp.jdkTrustClient(settings);
    }

    @Override
    public Channel channel() {
        return Channel.VENDOR_E;
    }

    @Override
    public int maxTargetsPerRequest() {
        return MAX_TARGETS;
    }

    @Override
    public List<Outcome> send(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        if (deliveries.isEmpty()) {
            return List.of();
        }
        try {
            return push(credentials, notification, deliveries);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Collections.nCopies(deliveries.size(), Outcome.retry("interrupted"));
        } catch (RuntimeException e) {
            return Collections.nCopies(deliveries.size(), Outcome.retry("vendor_e_error " + e));
        }
    }

    private List<Outcome> push(Credentials credentials, Notification notification, List<Delivery> deliveries)
            throws InterruptedException {
        StringBuilder pushIds = new StringBuilder();
        for (Delivery delivery : deliveries) {
            if (pushIds.length() > 0) {
                pushIds.append(',');
            }
            pushIds.append(delivery.token());
        }
        boolean passThrough = notification.isPassThrough();
        Map<String, String> params = new TreeMap<>();
        params.put("appId", credentials.providerAppId() == null ? "" : credentials.providerAppId().trim());
        params.put("pushIds", pushIds.toString());
        params.put("messageJson", json(passThrough ? passThroughMessage(notification) : notificationMessage(notification)));
        params.put("sign", sign(params, credentials.appSecret() == null ? "" : credentials.appSecret().trim()));

        String base = settings.baseUrl(credentials.environment()).toString();
        if (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + (passThrough ? PASS_THROUGH_PATH : NOTIFICATION_PATH)))
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/x-www-form-urlencoded;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(form(params), StandardCharsets.UTF_8))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            return all(deliveries, Outcome.retry("vendor_e_timeout"));
        } catch (IOException e) {
            return all(deliveries, Outcome.retry("vendor_e_io " + e.getClass().getSimpleName()));
        }
        if (response.statusCode() != 200) {
            Duration retryAfter = response.headers().firstValue("Retry-After").map(MeizuAdapter::seconds).orElse(null);
            return all(deliveries, Outcome.retry("vendor_e_http_" + response.statusCode(), retryAfter));
        }
        JsonNode answer;
        try {
            answer = mapper.readTree(response.body());
        } catch (IOException e) {
            answer = null;
        }
        if (answer == null || !answer.isObject()) {
            return all(deliveries, Outcome.retry("vendor_e_bad_answer"));
        }
        String code = answer.path("code").asText("");
        if (!"200".equals(code)) {
            return all(deliveries, requestFailure(code, answer.path("message").asText("")));
        }
        Map<String, Outcome> failed = new HashMap<>();
        JsonNode value = answer.get("value");
        if (value != null && value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                Outcome outcome = targetFailure(entry.getKey());
                for (JsonNode pushId : entry.getValue()) {
                    failed.put(pushId.asText(), outcome);
                }
            }
        }
        List<Outcome> outcomes = new ArrayList<>(deliveries.size());
        for (Delivery delivery : deliveries) {
            outcomes.add(failed.getOrDefault(delivery.token(), Outcome.ACCEPTED));
        }
        return outcomes;
    }

    /** A per-pushId code of the answer's value map. */
    static Outcome targetFailure(String code) {
        return switch (code) {
            // pushId unsubscribed or switched off / pushId illegal / alias unsubscribed: the token is dead
            case "110002", "110003", "110005" -> Outcome.rejected("vendor_e_" + code);
            // message folded: more than 5 messages to the device in one minute
            case "520" -> Outcome.retry("vendor_e_520", Duration.ofMinutes(1));
            // 201 refused (no permission), 501/513 push failed, 519 overloaded, anything else
            default -> Outcome.retry("vendor_e_" + code);
        };
    }

    /** A code other than 200 for the whole request. */
    static Outcome requestFailure(String code, String message) {
        String reason = "vendor_e_" + code + (message.isEmpty() ? "" : " " + message);
        return switch (code) {
            case "110010" -> Outcome.retry(reason, Duration.ofSeconds(1)); // pushing too fast
            // 500, 1001 system error, 1003 busy, 1005 bad parameter, 1006 bad sign, 110000 bad appId,
            // 110001 bad appKey, 110004 missing parameter, 110009 app blacklisted, 110053 pass-through limit
            default -> Outcome.retry(reason);
        };
    }

    private static List<Outcome> all(List<Delivery> deliveries, Outcome outcome) {
        return Collections.nCopies(deliveries.size(), outcome);
    }

    // ---- messages ----

    ObjectNode notificationMessage(Notification notification) {
        ObjectNode settingsOfChannel = notification.channelSettings(Channel.VENDOR_E);
        ObjectNode message = mapper.createObjectNode();
        String content = notification.body().isEmpty() && notification.bigText() != null
                ? notification.bigText() : notification.body();
        String title = notification.title().isEmpty() ? content : notification.title();
        ObjectNode bar = message.putObject("noticeBarInfo");
        bar.put("noticeBarType", 0);
        bar.put("title", truncate(title, TITLE_MAX));
        bar.put("content", truncate(content, CONTENT_MAX));
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
            if (intent.contains(":")) { // a URI (intent:, a scheme of the app, http:)
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
        ObjectNode type = advance.putObject("notificationType");
        type.put("vibrate", 1);
        type.put("lights", 1);
        type.put("sound", 1); // on/off only: Meizu plays the system sound, no per-message sound file
        settings.receiptUrl().ifPresent(url -> {
            String callback = url.toString();
            if (callback.getBytes(StandardCharsets.UTF_8).length <= CALLBACK_MAX_BYTES) {
                ObjectNode extra = message.putObject("extra");
                extra.put("callback", callback);
                extra.put("callback.param", Long.toString(notification.taskId()));
                extra.put("callback.type", 1); // delivery receipts only
            }
        });
        return message;
    }

    ObjectNode passThroughMessage(Notification notification) {
        ObjectNode message = mapper.createObjectNode();
        message.put("title", truncate(notification.title(), TITLE_MAX));
        ObjectNode ext = notification.ext();
        message.put("content", ext.isEmpty() ? truncateBytes(notification.body(), PASS_THROUGH_CONTENT_MAX_BYTES)
                : ext.toString());
        message.set("pushTimeInfo", pushTimeInfo(notification));
        return message;
    }

    private ObjectNode pushTimeInfo(Notification notification) {
        ObjectNode time = mapper.createObjectNode();
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

    private String json(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- signing and encoding ----

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

    private static String form(Map<String, String> params) {
        StringBuilder body = new StringBuilder();
        params.forEach((k, v) -> {
            if (body.length() > 0) {
                body.append('&');
            }
            body.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return body.toString();
    }

    /** At most {@code max} characters (code points, never splitting a surrogate pair). */
    public static String truncate(String text, int max) {
        if (text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max));
    }

    static String truncateBytes(String text, int maxBytes) {
        if (text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
            return text;
        }
        int bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            bytes += new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (bytes > maxBytes) {
                return text.substring(0, i);
            }
            i += Character.charCount(cp);
        }
        return text;
    }

    private static Duration seconds(String value) {
        try {
            return Duration.ofSeconds(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
