package io.imcore.pushworker.channel.apns;

import static io.imcore.pushworker.channel.Utf8Text.bytes;
import static io.imcore.pushworker.channel.Utf8Text.shorten;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushworker.channel.Notification;
import java.util.Iterator;
import java.util.Map;

/**
 * The APNs JSON payload of a notification for one badge value (docs/channels/apns.md has the mapping), kept under
 * {@link #MAX_BYTES} by shortening the body first, then the title, then the subtitle, then dropping the custom (ext)
 * keys.
 */
final class ApnsPayload {

    /** APNs' limit for regular remote notifications (the request is refused with PayloadTooLarge beyond). */
    static final int MAX_BYTES = 4096;
    /** The custom key carrying attachment_url for the app's notification service extension. */
    static final String ATTACHMENT_KEY = "attachment_url";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ApnsPayload() {}

    /** The payload for a delivery with this badge (null: no badge key). */
    static String build(Notification notification, Integer badge) {
        ObjectNode ios = notification.ios();
        String title = notification.title();
        String subtitle = Notification.text(ios, "subtitle");
        String body = notification.body();
        boolean withExt = true;
        String json = render(notification, badge, title, subtitle, body, withExt);
        int excess = bytes(json) - MAX_BYTES;
        // shorten the texts in order until the payload fits; each round cuts at least the excess from one text
        for (int round = 0; excess > 0 && round < 64; round++) {
            if (!body.isEmpty()) {
                body = shorten(body, excess);
            } else if (!title.isEmpty()) {
                title = shorten(title, excess);
            } else if (subtitle != null && !subtitle.isEmpty()) {
                subtitle = shorten(subtitle, excess);
            } else if (withExt) {
                withExt = false;
            } else {
                break; // nothing left to cut (cannot happen with the notify limits)
            }
            json = render(notification, badge, title, subtitle, body, withExt);
            excess = bytes(json) - MAX_BYTES;
        }
        return json;
    }

    private static String render(Notification notification, Integer badge, String title, String subtitle,
            String body, boolean withExt) {
        ObjectNode ios = notification.ios();
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode aps = root.putObject("aps");
        String attachment = notification.attachmentUrl();
        if (notification.isPassThrough()) {
            // background notification: aps holds content-available only; the texts travel as custom keys
            aps.put("content-available", 1);
            if (withExt) {
                copyExt(notification, root);
            }
            if (!title.isEmpty() && !root.has("title")) {
                root.put("title", title);
            }
            if (!body.isEmpty() && !root.has("body")) {
                root.put("body", body);
            }
        } else {
            ObjectNode alert = aps.putObject("alert");
            if (!title.isEmpty()) {
                alert.put("title", title);
            }
            if (subtitle != null && !subtitle.isEmpty()) {
                alert.put("subtitle", subtitle);
            }
            if (!body.isEmpty()) {
                alert.put("body", body);
            }
            if (badge != null) {
                aps.put("badge", badge);
            }
            String sound = Notification.text(ios, "sound");
            if (sound != null) {
                aps.put("sound", sound);
            }
            if (ios.path("content_available").asBoolean(false)) {
                aps.put("content-available", 1);
            }
            if (ios.path("mutable_content").asBoolean(false) || attachment != null) {
                aps.put("mutable-content", 1);
            }
            String category = Notification.text(ios, "category");
            if (category != null) {
                aps.put("category", category);
            }
            String threadId = Notification.text(ios, "thread_id");
            if (threadId != null) {
                aps.put("thread-id", threadId);
            }
            if (withExt) {
                copyExt(notification, root);
            }
        }
        if (attachment != null) {
            root.put(ATTACHMENT_KEY, attachment);
        }
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e); // an ObjectNode always serializes
        }
    }

    private static void copyExt(Notification notification, ObjectNode root) {
        for (Iterator<Map.Entry<String, JsonNode>> it = notification.ext().fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!field.getKey().equals("aps")) { // the app's keys never replace the APNs dictionary
                root.set(field.getKey(), field.getValue());
            }
        }
    }
}
