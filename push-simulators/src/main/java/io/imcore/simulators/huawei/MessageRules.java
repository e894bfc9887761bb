package io.imcore.simulators.huawei;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Huawei Push Kit refuses in the {@code message} of a v1 send, each rule with its source. Sources: "REST" is the
 * Push Kit REST reference "Sending Downlink Messages" (developer.huawei.com, HMSCore-References
 * https-send-api-0000001050986197); "demo" is Huawei's official server demo HMS-Core/hms-push-serverdemo-java (its
 * message model classes validate what the server refuses); "classification" is the "Message Classification Standard"
 * guide (HMSCore-Guides message-classification-0000001149358835). The answer codes are Huawei's result codes (demo
 * ResponceCodeProcesser); the message text of a refused field follows Huawei's published example ("Illegal payload,
 * badge addNum value ranges from 1 to 99", Push Kit REST response reference).
 */
final class MessageRules {

    /** REST, Restrictions: "The message body cannot exceed 4096 bytes (excluding the token)". */
    static final int MAX_MESSAGE_BYTES = 4096;
    /** REST android.ttl: at most 15 days (the scenario-specific API states it as "maximum value is 1296000"). */
    static final long MAX_TTL_SECONDS = 1_296_000;
    /**
     * REST android.category and classification: the documented values. Without the self-classification permission a
     * category is not refused: the message counts as news and marketing (classification, "Classification methods").
     */
    static final Set<String> CATEGORIES = Set.of("IM", "VOIP", "SUBSCRIPTION", "TRAVEL", "HEALTH", "WORK", "ACCOUNT",
            "EXPRESS", "FINANCE", "DEVICE_REMINDER", "SYSTEM_REMINDER", "MAIL", "PLAY_VOICE", "MARKETING");

    /** demo AndroidConfig.TTL_PATTERN. */
    private static final Pattern TTL = Pattern.compile("\\d+|\\d+[sS]|\\d+\\.\\d{1,9}|\\d+\\.\\d{1,9}[sS]");
    /** demo AndroidNotification.COLOR_PATTERN. */
    private static final Pattern COLOR = Pattern.compile("^#[0-9a-fA-F]{6}$");

    private MessageRules() {}

    /** Huawei's answer refusing {@code message}, or null when it is accepted. */
    static JsonObject check(JsonObject message) {
        try {
            JsonObject withoutTokens = message.copy();
            withoutTokens.remove("token");
            int size = withoutTokens.encode().getBytes(StandardCharsets.UTF_8).length;
            if (size > MAX_MESSAGE_BYTES) {
                return HuaweiSimulator.result("80300008",
                        "The message body size exceeds the default value set by the system (4K)");
            }
            // demo Message.check: exactly one of token, topic or condition (the simulator takes tokens only)
            if (message.containsKey("topic") || message.containsKey("condition")) {
                return illegal("exactly one of token, topic or condition must be specified");
            }
            // demo Message: data is a string (the app gets it as it is)
            if (message.containsKey("data") && !(message.getValue("data") instanceof String)) {
                return illegal("data must be a string");
            }
            String image = notificationImage(message.getJsonObject("notification"));
            if (image != null) {
                return illegal(image);
            }
            JsonObject android = message.getJsonObject("android");
            return android == null ? null : android(android, message.getJsonObject("notification"));
        } catch (ClassCastException e) { // a field of the wrong JSON type
            return illegal("message structure error");
        }
    }

    private static JsonObject android(JsonObject android, JsonObject notification) {
        Integer collapseKey = android.getInteger("collapse_key");
        if (collapseKey != null && (collapseKey < -1 || collapseKey > 100)) { // demo AndroidConfig.check
            return HuaweiSimulator.result("80100013", "Collapse_key is illegal, please check");
        }
        String urgency = android.getString("urgency");
        if (urgency != null && !Set.of("HIGH", "NORMAL").contains(urgency)) { // demo AndroidConfig.check
            return illegal("urgency should be [HIGH, NORMAL]");
        }
        String ttl = android.getString("ttl");
        if (ttl != null && (!TTL.matcher(ttl).matches() || seconds(ttl) > MAX_TTL_SECONDS)) { // demo, REST ttl
            return illegal("ttl should be at most " + MAX_TTL_SECONDS + "s");
        }
        String category = android.getString("category");
        if (category != null && !CATEGORIES.contains(category)) { // REST android.category, classification
            return illegal("category " + category + " is not supported");
        }
        JsonObject shown = android.getJsonObject("notification");
        return shown == null ? null : androidNotification(shown, notification);
    }

    private static JsonObject androidNotification(JsonObject shown, JsonObject notification) {
        // demo AndroidNotification.check and REST: title and body are required, here or in message.notification
        if (empty(shown.getString("title")) && (notification == null || empty(notification.getString("title")))) {
            return illegal("title should be set");
        }
        if (empty(shown.getString("body")) && (notification == null || empty(notification.getString("body")))) {
            return illegal("body should be set");
        }
        String image = shown.getString("image");
        if (image != null && !image.startsWith("https")) { // demo AndroidNotification.check URL_PATTERN
            return illegal("notifyIcon must start with https");
        }
        String color = shown.getString("color");
        if (color != null && !COLOR.matcher(color).matches()) { // demo AndroidNotification.check
            return illegal("Wrong color format, color must be in the form #RRGGBB");
        }
        JsonObject click = shown.getJsonObject("click_action");
        String clickRefused = click == null ? "click_action is required" : clickAction(click);
        if (clickRefused != null) { // REST: click_action is mandatory; demo ClickAction.check
            return illegal(clickRefused);
        }
        String style = style(shown);
        if (style != null) {
            return illegal(style);
        }
        JsonObject badge = shown.getJsonObject("badge");
        String badgeRefused = badge == null ? null : badge(badge);
        if (badgeRefused != null) {
            return illegal(badgeRefused);
        }
        // REST android.notification.notify_id: an Integer (demo AndroidNotification notifyId); -1 or none lets the
        // device pick a new id; messages with the same id replace each other
        Object notifyId = shown.getValue("notify_id");
        if (notifyId != null && !(notifyId instanceof Integer)) {
            return illegal("notify_id must be an integer");
        }
        // REST android.notification.group: a String (demo AndroidNotification group)
        Object group = shown.getValue("group");
        if (group != null && !(group instanceof String)) {
            return illegal("group must be a string");
        }
        String importance = shown.getString("importance");
        if (importance != null && !Set.of("LOW", "NORMAL", "HIGH").contains(importance)) {
            return illegal("importance should be [HIGH, NORMAL, LOW]"); // demo AndroidNotification.check
        }
        if ("HIGH".equals(importance)) { // ResponceCodeProcesser 80300011; the simulated apps have no such permission
            return HuaweiSimulator.result("80300011", "No permission to send high-level notification messages");
        }
        return null;
    }

    /** demo ClickAction.check. */
    private static String clickAction(JsonObject click) {
        Integer type = click.getInteger("type");
        if (type == null || type < 1 || type > 4) {
            return "click type should be one of 1: customize action, 2: open url, 3: open app, 4: open rich media";
        }
        if (type == 1 && empty(click.getString("intent")) && empty(click.getString("action"))) {
            return "intent or action is required when click type=1";
        }
        if (type == 2 && !startsWithHttps(click.getString("url"))) {
            return "url must start with https";
        }
        if (type == 4 && !startsWithHttps(click.getString("rich_resource"))) {
            return "richResource must start with https";
        }
        return null;
    }

    /** demo AndroidNotification.check: style 0, 1 (big text: big_title and big_body) or 3 (inbox: 1..5 lines). */
    private static String style(JsonObject shown) {
        Integer style = shown.getInteger("style");
        if (style == null || style == 0) {
            return null;
        }
        if (style == 1) {
            return empty(shown.getString("big_title")) || empty(shown.getString("big_body"))
                    ? "title and body are required when style = 1" : null;
        }
        if (style == 3) {
            int lines = shown.getJsonArray("inbox_content") == null ? 0 : shown.getJsonArray("inbox_content").size();
            return lines < 1 || lines > 5 ? "inboxContent is required when style = 3 and at most 5 inbox content is needed"
                    : null;
        }
        return "style should be one of 0:default, 1: big text, 3: Inbox";
    }

    /** demo BadgeNotification.check (add_num 1..99, set_num 0..99); REST badge: class is mandatory. */
    private static String badge(JsonObject badge) {
        Integer add = badge.getInteger("add_num");
        if (add != null && (add < 1 || add > 99)) {
            return "badge addNum value ranges from 1 to 99";
        }
        Integer set = badge.getInteger("set_num");
        if (set != null && (set < 0 || set > 99)) {
            return "badge setNum value ranges from 0 to 99";
        }
        return empty(badge.getString("class")) ? "badge class is required" : null;
    }

    /** demo Notification.check: message.notification.image must be https. */
    private static String notificationImage(JsonObject notification) {
        String image = notification == null ? null : notification.getString("image");
        return image == null || image.trim().toLowerCase(Locale.ROOT).startsWith("https") ? null
                : "image's url should start with HTTPS";
    }

    private static double seconds(String ttl) {
        return Double.parseDouble(ttl.endsWith("s") || ttl.endsWith("S") ? ttl.substring(0, ttl.length() - 1) : ttl);
    }

    private static boolean startsWithHttps(String url) {
        return url != null && url.startsWith("https");
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    private static JsonObject illegal(String detail) {
        return HuaweiSimulator.result("80100003", "Illegal payload, " + detail);
    }
}
