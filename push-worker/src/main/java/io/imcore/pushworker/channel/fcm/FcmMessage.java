package io.imcore.pushworker.channel.fcm;

import static io.imcore.pushworker.channel.Utf8Text.bytes;
import static io.imcore.pushworker.channel.Utf8Text.shorten;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.Notification;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The FCM HTTP v1 request body of a notification for one badge value, without the token (docs/channels/fcm.md has
 * the mapping). The notification and data parts are kept under {@link #MAX_BYTES} by shortening the body first,
 * then the title, then dropping the data (ext) keys.
 */
final class FcmMessage {

    /** FCM's payload limit for a message to a token (notification and data, keys and values). */
    static final int MAX_BYTES = 4096;
    /** android.ttl's maximum: 28 days. */
    static final long MAX_TTL_SECONDS = 28L * 24 * 3600;
    /** Data keys FCM refuses (INVALID_ARGUMENT); keys starting with "google" or "gcm" too. */
    static final Set<String> RESERVED_DATA_KEYS = Set.of("from", "notification", "message_type");

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String PREFIX = "{\"message\":{";

    private FcmMessage() {}

    /**
     * {@code {"message":{...}}} without the token; {@link #withToken} adds it. {@code nowSeconds} computes the ttl
     * from show_end_time.
     */
    static String build(Notification notification, Integer badge, long nowSeconds) {
        String title = notification.title();
        String body = notification.body();
        boolean withExt = true;
        ObjectNode message = render(notification, badge, nowSeconds, title, body, withExt);
        int excess = payloadBytes(message) - MAX_BYTES;
        for (int round = 0; excess > 0 && round < 64; round++) {
            if (!body.isEmpty()) {
                body = shorten(body, excess);
            } else if (!title.isEmpty()) {
                title = shorten(title, excess);
            } else if (withExt) {
                withExt = false;
            } else {
                break;
            }
            message = render(notification, badge, nowSeconds, title, body, withExt);
            excess = payloadBytes(message) - MAX_BYTES;
        }
        ObjectNode root = MAPPER.createObjectNode();
        root.set("message", message);
        return write(root);
    }

    /** The request body for one token. */
    static String withToken(String messageWithoutToken, String token) {
        String rest = messageWithoutToken.substring(PREFIX.length());
        return PREFIX + "\"token\":" + write(MAPPER.getNodeFactory().textNode(token))
                + (rest.startsWith("}") ? "" : ",") + rest;
    }

    private static ObjectNode render(Notification notification, Integer badge, long nowSeconds, String title,
            String body, boolean withExt) {
        ObjectNode message = MAPPER.createObjectNode();
        ObjectNode settings = notification.channelSettings(Channel.FCM);
        ObjectNode data = MAPPER.createObjectNode();
        if (withExt) {
            for (Iterator<Map.Entry<String, JsonNode>> it = notification.ext().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (allowedDataKey(field.getKey())) {
                    JsonNode value = field.getValue();
                    data.put(field.getKey(), value.isTextual() ? value.asText() : value.toString());
                }
            }
        }
        ObjectNode android = MAPPER.createObjectNode();
        if (notification.isPassThrough()) {
            // data-only message: the app's code handles it; the texts travel as data keys (ext wins on a clash)
            if (!title.isEmpty() && !data.has("title")) {
                data.put("title", title);
            }
            if (!body.isEmpty() && !data.has("body")) {
                data.put("body", body);
            }
        } else {
            ObjectNode shown = message.putObject("notification");
            if (!title.isEmpty()) {
                shown.put("title", title);
            }
            if (!body.isEmpty()) {
                shown.put("body", body);
            }
            String image = notification.attachmentUrl();
            if (image != null) {
                shown.put("image", image);
            }
            ObjectNode androidNotification = MAPPER.createObjectNode();
            String sound = Notification.text(settings, "sound");
            if (sound != null) {
                androidNotification.put("sound", sound);
            }
            String channelId = Notification.text(settings, "channel_id");
            if (channelId != null) {
                androidNotification.put("channel_id", channelId);
            }
            if ("intent".equals(Notification.text(settings, "click_action"))) {
                String intent = Notification.text(settings, "intent");
                if (intent != null) {
                    androidNotification.put("click_action", intent);
                }
            }
            if (badge != null) {
                androidNotification.put("notification_count", badge);
            }
            // the conversation's key: a notification with the same tag replaces the shown one (AndroidNotification.tag)
            String collapseKey = notification.collapseKey();
            if (collapseKey != null) {
                androidNotification.put("tag", collapseKey);
            }
            if (!androidNotification.isEmpty()) {
                android.set("notification", androidNotification);
            }
        }
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = Math.max(0, Math.min(MAX_TTL_SECONDS, end.asLong() - nowSeconds));
            android.put("ttl", ttl + "s");
        }
        // FCM keeps only the last message of a collapse key for an offline device (AndroidConfig.collapse_key)
        String collapseKey = notification.collapseKey();
        if (collapseKey != null) {
            android.put("collapse_key", collapseKey);
        }
        if (!android.isEmpty()) {
            message.set("android", android);
        }
        if (!data.isEmpty()) {
            message.set("data", data);
        }
        return message;
    }

    static boolean allowedDataKey(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return !key.isEmpty() && !RESERVED_DATA_KEYS.contains(lower) && !lower.startsWith("google")
                && !lower.startsWith("gcm");
    }

    /** What FCM counts against its limit: the notification, the android notification and the data. */
    private static int payloadBytes(ObjectNode message) {
        int size = 0;
        for (String part : new String[] {"notification", "data"}) {
            if (message.has(part)) {
                size += bytes(write(message.get(part)));
            }
        }
        JsonNode androidNotification = message.path("android").get("notification");
        if (androidNotification != null) {
            size += bytes(write(androidNotification));
        }
        return size;
    }

    private static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
