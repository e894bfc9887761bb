package io.imcore.push.notify;

import static io.imcore.push.notify.JsonFields.checkLength;
import static io.imcore.push.notify.JsonFields.nonEmptyString;
import static io.imcore.push.notify.JsonFields.optionalBoolean;
import static io.imcore.push.notify.JsonFields.optionalLong;
import static io.imcore.push.notify.JsonFields.optionalObject;
import static io.imcore.push.notify.JsonFields.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.pushcontract.Channel;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code message} part of {@link NotifyParser}: validates it and builds the normalized message object. */
final class MessageParser {

    /*
     * Our own limits, generous on purpose: each provider adapter truncates title and body to its provider's own
     * (smaller, differing) limits; these only keep one task's records bounded.
     */
    static final int MAX_TITLE_LENGTH = 256;
    static final int MAX_BODY_LENGTH = 4000;
    static final int MAX_BIG_TEXT_LENGTH = 4000;
    static final int MAX_EXT_BYTES = 4096;
    /** APNs refuses an apns-collapse-id over 64 bytes. */
    static final int MAX_COLLAPSE_ID_BYTES = 64;
    /** 9999-12-31T23:59:59Z: a larger value is a mistake (milliseconds?), not a time. */
    static final long MAX_EPOCH_SECONDS = 253_402_300_799L;

    /** The OS channels that take the android settings, in the order of the normalized {@code channels} object. */
    static final List<Channel> ANDROID_CHANNELS = List.of(
            Channel.FCM, Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU);

    private static final Set<String> TYPES = Set.of("text", "image", "cmd");
    private static final Set<String> IMAGE_SUFFIXES = Set.of(".jpg", ".jpeg", ".png");
    private static final Pattern SET_BADGE = Pattern.compile("0*([0-9]{1,5})");
    private static final Pattern ADD_BADGE = Pattern.compile("\\+0*([0-9]{1,5})");

    /**
     * @param json          the normalized message (docs/push-notify.md)
     * @param attachmentUrl the image to fetch for the size check: set for type image only
     */
    record Parsed(ObjectNode json, Long showBeginTime, Long showEndTime, String attachmentUrl) {}

    private final Clock clock;

    MessageParser(Clock clock) {
        this.clock = clock;
    }

    Parsed parse(ObjectNode message) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        String type = nonEmptyString(message, "type", "message.type");
        if (type == null) {
            type = "text";
        } else if (!TYPES.contains(type)) {
            throw ApiException.badParameter("message.type", "must be one of text, image, cmd");
        }
        json.put("type", type);
        json.put("title", limitedString(message, "title", MAX_TITLE_LENGTH, ""));
        json.put("body", limitedString(message, "body", MAX_BODY_LENGTH, ""));
        putIfSet(json, "big_text", limitedString(message, "big_text", MAX_BIG_TEXT_LENGTH, null));
        json.put("badge", badge(string(message, "badge", "message.badge")));
        ObjectNode ext = ext(message);
        if (ext != null) {
            json.set("ext", ext);
        }
        String attachmentUrl = attachmentUrl(message, type.equals("image"));
        putIfSet(json, "attachment_url", attachmentUrl);
        Long showBeginTime = epochSeconds(message, "show_begin_time");
        Long showEndTime = epochSeconds(message, "show_end_time");
        checkShowTimes(showBeginTime, showEndTime);
        if (showBeginTime != null) {
            json.put("show_begin_time", showBeginTime);
        }
        if (showEndTime != null) {
            json.put("show_end_time", showEndTime);
        }
        ObjectNode ios = ios(message);
        if (!ios.isEmpty()) {
            json.set("ios", ios);
        }
        json.set("channels", channels(message, type));
        return new Parsed(json, showBeginTime, showEndTime, type.equals("image") ? attachmentUrl : null);
    }

    /** A string, {@code absent} when absent, null or empty. */
    private static String limitedString(JsonNode message, String name, int maxLength, String absent) {
        String path = "message." + name;
        String value = string(message, name, path);
        if (value == null || value.isEmpty()) {
            return absent;
        }
        checkLength(path, value, maxLength);
        return value;
    }

    /** "5" sets the badge, "+2" adds to it; empty means "+1". Normalized without leading zeros. */
    private static String badge(String badge) {
        if (badge == null || badge.isEmpty()) {
            return "+1";
        }
        Matcher set = SET_BADGE.matcher(badge);
        if (set.matches()) {
            return String.valueOf(Integer.parseInt(set.group(1)));
        }
        Matcher add = ADD_BADGE.matcher(badge);
        if (add.matches() && Integer.parseInt(add.group(1)) > 0) {
            return "+" + Integer.parseInt(add.group(1));
        }
        throw ApiException.badParameter("message.badge", "must be a number 0..99999 (sets the badge) or +N with N "
                + "1..99999 (adds N)");
    }

    /** The ext object, or null when absent or empty. */
    private static ObjectNode ext(JsonNode message) {
        ObjectNode ext = optionalObject(message, "ext", "message.ext");
        if (ext == null || ext.isEmpty()) {
            return null;
        }
        JsonFields.checkStorable("message.ext", ext);
        if (ext.toString().getBytes(StandardCharsets.UTF_8).length > MAX_EXT_BYTES) {
            throw ApiException.badParameter("message.ext", "larger than " + MAX_EXT_BYTES + " bytes as JSON");
        }
        return ext;
    }

    private static String attachmentUrl(JsonNode message, boolean image) {
        String path = "message.attachment_url";
        String url = nonEmptyString(message, "attachment_url", path);
        if (url == null) {
            if (image) {
                throw ApiException.badParameter(path, "is required for type image");
            }
            return null;
        }
        URI uri = AttachmentCheck.httpUri(url);
        if (uri == null) {
            throw ApiException.badParameter(path, "must be an absolute http or https URL");
        }
        if (image && !hasImageSuffix(uri)) {
            throw ApiException.badParameter(path, "an image URL's path must end in .jpg, .jpeg or .png");
        }
        return url;
    }

    private static boolean hasImageSuffix(URI uri) {
        String urlPath = uri.getPath() == null ? "" : uri.getPath().toLowerCase(Locale.ROOT);
        return IMAGE_SUFFIXES.stream().anyMatch(urlPath::endsWith);
    }

    private static Long epochSeconds(JsonNode message, String name) {
        String path = "message." + name;
        Long value = optionalLong(message, name, path);
        if (value != null && (value < 0 || value > MAX_EPOCH_SECONDS)) {
            throw ApiException.badParameter(path, "must be a time in epoch seconds, 0.." + MAX_EPOCH_SECONDS);
        }
        return value;
    }

    /** A begin time in the past means "now" and is kept as given; only the end time is checked. */
    private void checkShowTimes(Long showBeginTime, Long showEndTime) {
        if (showEndTime == null) {
            return;
        }
        if (showEndTime <= clock.instant().getEpochSecond()) {
            throw ApiException.badParameter("message.show_end_time", "must be in the future");
        }
        if (showBeginTime != null && showEndTime <= showBeginTime) {
            throw ApiException.badParameter("message.show_end_time", "must be after show_begin_time");
        }
    }

    private static ObjectNode ios(JsonNode message) {
        ObjectNode ios = JsonNodeFactory.instance.objectNode();
        ObjectNode given = optionalObject(message, "ios", "message.ios");
        if (given == null) {
            return ios;
        }
        for (String name : List.of("sound", "category", "thread_id", "subtitle", "ios_collapse_id")) {
            putIfSet(ios, name, nonEmptyString(given, name, "message.ios." + name));
        }
        for (String name : List.of("content_available", "mutable_content")) {
            Boolean flag = optionalBoolean(given, name, "message.ios." + name);
            if (flag != null) {
                ios.put(name, flag);
            }
        }
        if (ios.has("ios_collapse_id")
                && ios.get("ios_collapse_id").textValue().getBytes(StandardCharsets.UTF_8).length
                        > MAX_COLLAPSE_ID_BYTES) {
            throw ApiException.badParameter("message.ios.ios_collapse_id",
                    "longer than " + MAX_COLLAPSE_ID_BYTES + " bytes (UTF-8)");
        }
        return ios;
    }

    /**
     * Each android OS channel's effective settings: android's, overridden field by field by the channel's own object,
     * plus the channel's extra fields and its message options ({@link MessageOptions}, never inherited from android).
     * A channel with nothing set is left out.
     */
    private static ObjectNode channels(JsonNode message, String type) {
        ObjectNode android = androidSettings(message, "android", null, type);
        ObjectNode channels = JsonNodeFactory.instance.objectNode();
        for (Channel channel : ANDROID_CHANNELS) {
            ObjectNode override = androidSettings(message, channel.wireName(), channel, type);
            ObjectNode effective = android.deepCopy();
            effective.setAll(override);
            if ("intent".equals(effective.path("click_action").textValue())) {
                if (!effective.has("intent")) {
                    String owner = override.has("click_action") ? channel.wireName() : "android";
                    throw ApiException.badParameter("message." + owner + ".intent",
                            "is required when click_action is intent (missing for " + channel.wireName() + ")");
                }
            } else {
                effective.remove("intent");
            }
            if (!effective.isEmpty()) {
                if (channel == Channel.VIVO) {
                    effective.put("push_mode", effective.path("push_mode").asInt(0));
                }
                channels.set(channel.wireName(), effective);
            }
        }
        return channels;
    }

    /** The fields set in the android object ({@code channel} null) or in one channel's object. */
    private static ObjectNode androidSettings(JsonNode message, String name, Channel channel, String type) {
        ObjectNode settings = JsonNodeFactory.instance.objectNode();
        String path = "message." + name;
        ObjectNode given = optionalObject(message, name, path);
        if (given == null) {
            return settings;
        }
        putIfSet(settings, "sound", nonEmptyString(given, "sound", path + ".sound"));
        putIfSet(settings, "channel_id", nonEmptyString(given, "channel_id", path + ".channel_id"));
        String clickAction = nonEmptyString(given, "click_action", path + ".click_action");
        if (clickAction != null && !clickAction.equals("intent") && !clickAction.equals("open_app")) {
            throw ApiException.badParameter(path + ".click_action", "must be intent or open_app");
        }
        putIfSet(settings, "click_action", clickAction);
        String intent = nonEmptyString(given, "intent", path + ".intent");
        if (intent != null && !namesComponent(intent)) {
            throw ApiException.badParameter(path + ".intent", "must name the component as <package>/<activity>");
        }
        putIfSet(settings, "intent", intent);
        if (channel == Channel.HUAWEI) {
            putIfSet(settings, "badge_class", nonEmptyString(given, "badge_class", path + ".badge_class"));
        } else if (channel == Channel.VIVO) {
            putFlag(settings, given, "push_mode", path);
        }
        if (channel != null) {
            settings.setAll(MessageOptions.ofPush(channel, given, path, type));
        }
        return settings;
    }

    /** {@code <package>/<activity>...}: a '/' with at least one character on each side of the first one. */
    private static boolean namesComponent(String intent) {
        int slash = intent.indexOf('/');
        return slash > 0 && slash < intent.length() - 1;
    }

    private static void putFlag(ObjectNode settings, JsonNode given, String name, String path) {
        Long flag = optionalLong(given, name, path + "." + name);
        if (flag == null) {
            return;
        }
        if (flag != 0 && flag != 1) {
            throw ApiException.badParameter(path + "." + name, "must be 0 or 1");
        }
        settings.put(name, flag.intValue());
    }

    private static void putIfSet(ObjectNode json, String name, String value) {
        if (value != null) {
            json.put(name, value);
        }
    }
}
