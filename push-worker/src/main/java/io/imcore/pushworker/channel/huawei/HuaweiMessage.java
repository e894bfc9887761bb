package io.imcore.pushworker.channel.huawei;

import static io.imcore.pushworker.channel.Utf8Text.ELLIPSIS;
import static io.imcore.pushworker.channel.Utf8Text.bytes;
import static io.imcore.pushworker.channel.Utf8Text.shorten;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.util.List;

/**
 * The Huawei Push Kit v1 request body of one send, without its tokens (docs/channels/huawei.md has the mapping and
 * the sources of each rule). Built so that Huawei never refuses it: title and body both set, an https image only, the
 * badge number in 0..99, the ttl in Huawei's range, a message category, and the message (tokens left out) within
 * {@link #MAX_MESSAGE_BYTES}: the big text, then the body, then the title are shortened to fit. What cannot be made to
 * fit is a {@link #failure()}: the caller fails the targets at once instead of sending.
 *
 * @param request the request without {@code message.token}, or null when {@link #failure()} is set
 * @param failure why Huawei cannot carry this message, or null
 */
record HuaweiMessage(ObjectNode request, String failure) {

    /** "The message body cannot exceed 4096 bytes (excluding the token)" (Sending Downlink Messages, Restrictions). */
    static final int MAX_MESSAGE_BYTES = 4096;
    /** Ours, not Huawei's (it counts only the message size): what a notification shows, in code points. */
    static final int TITLE_MAX = 100;
    static final int BODY_MAX = 1000;
    /** badge.set_num must be 0..99 (server demo's BadgeNotification.check: "set_num should locate between 0 and 100"). */
    static final int BADGE_MAX = 99;
    /** android.ttl's maximum, 15 days (Push Kit REST reference, ttl: "the maximum value is 1296000"). */
    static final long TTL_MAX_SECONDS = 1_296_000;
    /**
     * The category of a chat push when neither the push nor the app sets one: IM, "instant chat" (Message
     * Classification Standard). Huawei trusts it only for apps granted the message self-classification permission for
     * IM; otherwise the message counts as news and marketing (silent, a few per device and day), but is not refused.
     */
    static final String DEFAULT_CATEGORY = "IM";

    static final String NO_TEXT = "no title and no body";
    static final String CMD_WITHOUT_DATA = "cmd with no ext, body or title";
    static final String TOO_LARGE = "message too large";

    /**
     * Builds the request of {@code notification} for one badge number ({@code badge} null: no badge; set only with a
     * {@code badgeClass}). {@code nowSeconds} turns show_end_time into the ttl.
     */
    static HuaweiMessage build(Notification notification, Credentials credentials, String badgeClass, Integer badge,
            long nowSeconds) {
        return notification.isPassThrough() ? dataMessage(notification, credentials, nowSeconds)
                : notificationMessage(notification, credentials, badgeClass, badge, nowSeconds);
    }

    /** The request with {@code tokens} as its targets. */
    String withTokens(List<String> tokens) {
        ObjectNode copy = request.deepCopy();
        ArrayNode list = ((ObjectNode) copy.get("message")).putArray("token");
        tokens.forEach(list::add);
        return copy.toString();
    }

    private static HuaweiMessage dataMessage(Notification notification, Credentials credentials, long nowSeconds) {
        ObjectNode ext = notification.ext();
        String data = !ext.isEmpty() ? ext.toString()
                : !notification.body().isEmpty() ? notification.body() : notification.title();
        if (data.isEmpty()) {
            return failed(CMD_WITHOUT_DATA);
        }
        ObjectNode root = root();
        ObjectNode message = (ObjectNode) root.get("message");
        message.put("data", data);
        ObjectNode android = android(message, notification, nowSeconds);
        // a data message takes only an explicit category: its documented values (VOIP, PLAY_VOICE) need a permission
        JsonNode category = notification.option(Channel.HUAWEI, credentials, "category");
        if (category != null) {
            android.put("category", category.asText());
        }
        int size = messageBytes(root);
        return size <= MAX_MESSAGE_BYTES ? new HuaweiMessage(root, null) : tooLarge(size);
    }

    private static HuaweiMessage notificationMessage(Notification notification, Credentials credentials,
            String badgeClass, Integer badge, long nowSeconds) {
        // Huawei requires both texts (Sending Downlink Messages: title and body; server demo AndroidNotification.check)
        String title = notification.title().isEmpty() ? notification.body() : notification.title();
        String body = notification.body().isEmpty() ? notification.title() : notification.body();
        if (title.isEmpty()) {
            return failed(NO_TEXT);
        }
        Texts texts = new Texts(VendorHttp.truncate(title, TITLE_MAX), VendorHttp.truncate(body, BODY_MAX),
                notification.bigText() == null ? null : VendorHttp.truncate(notification.bigText(), BODY_MAX));
        for (;;) {
            ObjectNode root = render(notification, credentials, badgeClass, badge, nowSeconds, texts);
            int size = messageBytes(root);
            if (size <= MAX_MESSAGE_BYTES) {
                return new HuaweiMessage(root, null);
            }
            Texts shorter = texts.shortenedBy(size - MAX_MESSAGE_BYTES);
            if (shorter.equals(texts)) {
                return tooLarge(size);
            }
            texts = shorter;
        }
    }

    /** The texts of a notification; {@code bigText} null: no big text style. */
    private record Texts(String title, String body, String bigText) {

        /**
         * Shorter by about {@code excess} bytes: the big text first (dropped when nothing of it can stay), then the
         * body, then the title, each kept to at least one character (Huawei refuses an empty title or body).
         */
        Texts shortenedBy(int excess) {
            if (bigText != null) {
                String cut = shorten(bigText, excess);
                return new Texts(title, body, cut.isEmpty() ? null : cut);
            }
            String cutBody = shortenKeepingOne(body, excess);
            if (!cutBody.equals(body)) {
                return new Texts(title, cutBody, null);
            }
            return new Texts(shortenKeepingOne(title, excess), body, null);
        }

        private static String shortenKeepingOne(String text, int excess) {
            int first = text.offsetByCodePoints(0, 1);
            int most = bytes(text) - bytes(text.substring(0, first)) - bytes(ELLIPSIS);
            return most <= 0 ? text : shorten(text, Math.min(excess, most));
        }
    }

    private static ObjectNode render(Notification notification, Credentials credentials, String badgeClass,
            Integer badge, long nowSeconds, Texts texts) {
        ObjectNode root = root();
        ObjectNode message = (ObjectNode) root.get("message");
        if (!notification.ext().isEmpty()) {
            message.put("data", notification.ext().toString());
        }
        ObjectNode android = android(message, notification, nowSeconds);
        JsonNode category = notification.option(Channel.HUAWEI, credentials, "category");
        android.put("category", category == null ? DEFAULT_CATEGORY : category.asText());
        ObjectNode settings = notification.channelSettings(Channel.HUAWEI);
        ObjectNode shown = android.putObject("notification");
        shown.put("title", texts.title());
        shown.put("body", texts.body());
        if (texts.bigText() != null) {
            shown.put("style", 1);
            shown.put("big_title", texts.title());
            shown.put("big_body", texts.bigText());
        }
        String image = httpsImage(notification.attachmentUrl());
        if (image != null) {
            shown.put("image", image);
        }
        String channelId = Notification.text(settings, "channel_id");
        if (channelId != null) {
            shown.put("channel_id", channelId);
        }
        String sound = Notification.text(settings, "sound");
        if (sound != null) {
            shown.put("sound", sound);
            shown.put("default_sound", false);
        }
        ObjectNode click = shown.putObject("click_action");
        String intent = Notification.text(settings, "intent");
        if ("intent".equals(Notification.text(settings, "click_action")) && intent != null) {
            click.put("type", 1);
            click.put(VendorHttp.isUri(intent) ? "intent" : "action", intent);
        } else {
            click.put("type", 3); // open the app
        }
        // the conversation's notification: the same notify_id replaces the shown one, the same group shows only the
        // latest message and the group's count (REST android.notification.notify_id, group)
        Integer notifyId = notification.notifyId();
        if (notifyId != null) {
            shown.put("notify_id", notifyId);
        }
        String group = notification.group();
        if (group != null) {
            shown.put("group", group);
        }
        if (badgeClass != null && badge != null) {
            ObjectNode b = shown.putObject("badge");
            b.put("class", badgeClass);
            b.put("set_num", badgeNumber(badge));
        }
        return root;
    }

    /** Our badge counter as Huawei takes it: 0..{@value #BADGE_MAX} (a device past 99 shows 99). */
    static int badgeNumber(int badge) {
        return Math.max(0, Math.min(BADGE_MAX, badge));
    }

    /** message.android with bi_tag (our task id, for receipts) and the ttl from show_end_time. */
    private static ObjectNode android(ObjectNode message, Notification notification, long nowSeconds) {
        ObjectNode android = message.putObject("android");
        android.put("bi_tag", Long.toString(notification.taskId()));
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = Math.max(1, Math.min(TTL_MAX_SECONDS, end.asLong() - nowSeconds));
            android.put("ttl", ttl + "s");
        }
        return android;
    }

    /**
     * The image when it is https (Huawei refuses others: server demo's AndroidNotification.check "notifyIcon must start
     * with https", Notification.check), its scheme in lower case; else null: the push goes out as a text notification.
     */
    static String httpsImage(String url) {
        String scheme = "https://";
        return url != null && url.regionMatches(true, 0, scheme, 0, scheme.length())
                ? scheme + url.substring(scheme.length()) : null;
    }

    /** What Huawei counts: the request without its tokens (an upper bound: it includes validate_only). */
    static int messageBytes(ObjectNode requestWithoutTokens) {
        return bytes(requestWithoutTokens.toString());
    }

    private static ObjectNode root() {
        ObjectNode root = VendorHttp.JSON.createObjectNode();
        root.put("validate_only", false);
        root.putObject("message");
        return root;
    }

    private static HuaweiMessage failed(String reason) {
        return new HuaweiMessage(null, reason);
    }

    private static HuaweiMessage tooLarge(int size) {
        return failed(TOO_LARGE + ": " + size + " bytes without the tokens, Huawei takes " + MAX_MESSAGE_BYTES);
    }
}
