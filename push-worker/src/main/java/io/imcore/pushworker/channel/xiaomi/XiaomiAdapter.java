package io.imcore.pushworker.channel.xiaomi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.push.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
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
 * vendor_b: Xiaomi (Mi) push server API (docs/channels/vendor_b.md). {@code POST {base}/v3/message/regid},
 * form-encoded, {@code Authorization: key=<AppSecret>}, up to 1000 comma-joined regIds per request, one request per
 * send. The AppSecret never expires, so there is no token to cache or refresh.
 */
public class XiaomiAdapter extends BatchAdapter {

    static final int MAX_TOKENS = 1000;
    static final int TITLE_MAX = 50;
    static final int DESCRIPTION_MAX = 128;
    static final String PATH = "/v3/message/regid";

    public XiaomiAdapter(ChannelSettings settings) {
        super(Channel.VENDOR_B, MAX_TOKENS, settings);
    }

    @Override
    protected List<Outcome> sendBatch(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        int n = deliveries.size();
        URI uri = VendorHttp.resolve(settings.baseUrl(credentials.environment()), PATH);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .header("Authorization", "key=" + (credentials.appSecret() == null ? "" : credentials.appSecret()))
                .POST(HttpRequest.BodyPublishers.ofString(VendorHttp.form(fields(credentials, notification,
                        deliveries))))
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
        return classify(response, deliveries);
    }

    static List<Outcome> classify(HttpResponse<String> response, List<Delivery> deliveries) {
        int n = deliveries.size();
        JsonNode json = VendorHttp.json(response.body());
        if (json == null || !json.has("code")) {
            return VendorHttp.all(n, Outcome.retry("http " + response.statusCode(), VendorHttp.retryAfter(response)));
        }
        int code = json.path("code").asInt(-1);
        String reason = json.path("reason").asText("");
        if (code == 0) {
            Set<String> bad = new HashSet<>();
            for (String t : json.path("data").path("bad_regids").asText("").split(",")) {
                if (!t.isBlank()) {
                    bad.add(t.trim());
                }
            }
            List<Outcome> out = VendorHttp.all(n, Outcome.ACCEPTED);
            for (int i = 0; i < n; i++) {
                if (bad.contains(deliveries.get(i).token())) {
                    out.set(i, Outcome.rejected("bad_regids"));
                }
            }
            return out;
        }
        if (code == 20301 && reason.toLowerCase().contains("no valid targets")) {
            return VendorHttp.all(n, Outcome.rejected("20301 no valid targets"));
        }
        // 21301/21302 authentication failed, 22xxx illegal app/secret: the static AppSecret was refused;
        // 10002 busy, 10027 QPS, 10034 daily quota, 200001 limit, anything else: try again later
        Duration after = VendorHttp.retryAfter(response);
        String kind = code == 21301 || code == 21302 || (code >= 22000 && code < 23000) ? "auth " : "";
        return VendorHttp.all(n, Outcome.retry(kind + code + " " + reason, after));
    }

    Map<String, String> fields(Credentials credentials, Notification notification, List<Delivery> deliveries) {
        Map<String, String> f = new LinkedHashMap<>();
        StringJoiner regIds = new StringJoiner(",");
        deliveries.forEach(d -> regIds.add(d.token()));
        f.put("registration_id", regIds.toString());
        f.put("restricted_package_name", credentials.providerAppId());
        ObjectNode ext = notification.ext();
        ObjectNode s = notification.channelSettings(Channel.VENDOR_B);
        if (notification.isPassThrough()) {
            f.put("pass_through", "1");
            f.put("payload", ext.isEmpty() ? notification.body() : ext.toString());
        } else {
            f.put("pass_through", "0");
            f.put("title", VendorHttp.truncate(notification.title(), TITLE_MAX));
            String bigText = notification.bigText();
            f.put("description", VendorHttp.truncate(bigText != null ? bigText : notification.body(),
                    DESCRIPTION_MAX));
            if (!ext.isEmpty()) {
                f.put("payload", ext.toString());
            }
            f.put("notify_type", "-1");
            f.put("notify_id", Long.toString(notification.taskId() & 0x7fffffffL));
            if (bigText != null) {
                f.put("extra.notification_style_type", "1");
            }
            String intent = Notification.text(s, "intent");
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
            String channelId = Notification.text(s, "channel_id");
            if (channelId != null) {
                f.put("extra.channel_id", channelId);
            }
        }
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = Math.max(1000, end.asLong() * 1000 - System.currentTimeMillis());
            f.put("time_to_live", Long.toString(ttl));
        }
        settings.receiptUrl().ifPresent(url -> {
            f.put("extra.callback", url.toString());
            f.put("extra.callback.param", Long.toString(notification.taskId()));
            f.put("extra.callback.type", "1");
        });
        return f;
    }
}
