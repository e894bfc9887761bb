package io.imcore.pushworker.channel.vivo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.http.VendorHttp;
import java.net.URI;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * The notification fields of a vivo push, shared by {@code /message/send} and {@code /message/saveListPayload}
 * (docs/channels/vivo.md "Field mapping"). Field names are those of the official server SDK's
 * {@code com.vivo.push.sdk.notofication.Message} (vpush-server-sdk 3.3); limits from vivo's server API document.
 * A message vivo would refuse whatever the device is never built: {@link Unsendable} names the reason.
 */
final class VivoMessage {

    /** Title and content limits in vivo's units ("最大20个汉字 / 40个英文字符", "最大50个汉字 / 100个英文字符"). */
    static final int TITLE_MAX = 40;
    static final int CONTENT_MAX = 100;
    /** skipContent limit for skipType 3 and 4. */
    static final int SKIP_CONTENT_MAX = 1024;
    /** clientCustomMap: at most 10 pairs, keys and values 1024 characters in all. */
    static final int CUSTOM_PAIRS_MAX = 10;
    static final int CUSTOM_CHARS_MAX = 1024;
    /** timeToLive: doc 2.9.x says at least 900 s (later versions 60 s), at most 7 days. */
    static final int TTL_MIN_SECONDS = 900;
    static final int TTL_MAX_SECONDS = 7 * 24 * 3600;
    /** extra.callback at most 128 characters, extra.callback.param 64. */
    static final int CALLBACK_MAX = 128;

    static final int NOTIFY_RING_AND_VIBRATE = 4;
    static final int SKIP_OPEN_APP = 1;
    static final int SKIP_APP_PAGE = 4;
    static final int NETWORK_ANY = -1;

    static final String NO_TEXT = "no title and no body";
    static final String EXT_TOO_LARGE = "vendor_d_ext_too_large";
    static final String CATEGORY_INVALID = "vendor_d_category_invalid";

    /** The message cannot be sent to vivo at all: FAILED with {@link #getMessage()} as the reason. */
    static final class Unsendable extends Exception {
        Unsendable(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What goes in {@code category} (null: none) and {@code classification}. */
    record Classing(VivoCategory category, int classification) {}

    private VivoMessage() {}

    /**
     * The message fields (without {@code requestId} and {@code regId}, set per call). {@code receiptUrl}: where vivo
     * should post delivery receipts, or empty.
     */
    static ObjectNode build(Credentials credentials, Notification notification, Optional<URI> receiptUrl)
            throws Unsendable {
        ObjectNode settings = notification.channelSettings(Channel.VIVO);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        putAppId(body, credentials.providerAppId());
        body.put("notifyType", NOTIFY_RING_AND_VIBRATE); // vivo has no per-message sound file
        putTexts(body, notification);
        putTimeToLive(body, notification);
        putClick(body, settings);
        body.put("networkType", NETWORK_ANY);
        putCustomMap(body, notification.ext());
        Classing classing = classing(credentials, notification);
        body.put("classification", classing.classification());
        if (classing.category() != null) {
            body.put("category", classing.category().name());
        }
        // doc 362 notifyId (1..2147483647): a new message with the same id replaces the shown one
        Integer notifyId = notification.notifyId();
        if (notifyId != null) {
            body.put("notifyId", notifyId);
        }
        int pushMode = pushMode(notification);
        body.put("pushMode", pushMode);
        if (pushMode == 0) { // vivo sends receipts for formal messages only
            putReceipt(body, credentials, notification.taskId(), receiptUrl);
        }
        return body;
    }

    /** 0 formal, 1 test (only the test devices registered in vivo's console receive it). */
    static int pushMode(Notification notification) {
        return notification.channelSettings(Channel.VIVO).path("push_mode").asInt(0) == 1 ? 1 : 0;
    }

    /**
     * The category rule (docs/channels/vivo.md "Message categories"): the push's {@code category}, else the
     * app's default; else a classification 0 (the push's, else the app's default) gives an operational message
     * without a category; else IM, the default of an IM product. The classification sent is always the category's
     * own, so vivo never answers 10097.
     */
    static Classing classing(Credentials credentials, Notification notification) throws Unsendable {
        JsonNode given = notification.option(Channel.VIVO, credentials, "category");
        if (given != null) {
            VivoCategory category = VivoCategory.of(given.asText())
                    .orElseThrow(() -> new Unsendable(CATEGORY_INVALID + " " + given.asText()));
            return new Classing(category, category.classification());
        }
        // push-service keeps classification in message.vendor_d only when the push set it (docs/push-notify.md)
        JsonNode classification = notification.option(Channel.VIVO, credentials, "classification");
        if (classification != null && classification.canConvertToInt() && classification.asInt() == 0) {
            return new Classing(null, 0);
        }
        return new Classing(VivoCategory.IM, 1);
    }

    /**
     * vivo requires both title and content: the content is the body, else big_text, else the title; the title is
     * the title, else the content.
     */
    private static void putTexts(ObjectNode body, Notification notification) throws Unsendable {
        String content = firstNonBlank(notification.body(), notification.bigText(), notification.title());
        if (content == null) {
            throw new Unsendable(NO_TEXT);
        }
        String title = firstNonBlank(notification.title(), content);
        body.put("title", truncate(title, TITLE_MAX));
        body.put("content", truncate(content, CONTENT_MAX));
    }

    private static void putTimeToLive(ObjectNode body, Notification notification) {
        JsonNode end = notification.message().get("show_end_time");
        if (end != null && end.canConvertToLong()) {
            long ttl = end.asLong() - Instant.now().getEpochSecond();
            body.put("timeToLive", (int) Math.max(TTL_MIN_SECONDS, Math.min(TTL_MAX_SECONDS, ttl)));
        }
    }

    /** Open a page of the app (skipType 4, an intent URI) or the app itself (skipType 1). */
    private static void putClick(ObjectNode body, ObjectNode settings) {
        String intent = Notification.text(settings, "intent");
        String uri = intent == null || !"intent".equals(Notification.text(settings, "click_action"))
                ? null : intentUri(intent);
        if (uri != null && uri.length() <= SKIP_CONTENT_MAX) {
            body.put("skipType", SKIP_APP_PAGE);
            body.put("skipContent", uri);
        } else { // a cut intent would open nothing: open the app instead
            body.put("skipType", SKIP_OPEN_APP);
        }
    }

    /**
     * vivo's skipType 4 takes an intent URI (Android {@code Intent.toUri}); our {@code <package>/<activity>[;extras]}
     * form becomes {@code intent:#Intent;component=<package>/<activity>[;extras];end}.
     */
    static String intentUri(String intent) {
        return VendorHttp.isUri(intent) ? intent : "intent:#Intent;component=" + intent + ";end";
    }

    /** ext becomes clientCustomMap, a string map: other values are sent as their JSON text. */
    private static void putCustomMap(ObjectNode body, ObjectNode ext) throws Unsendable {
        if (ext.isEmpty()) {
            return;
        }
        ObjectNode custom = JsonNodeFactory.instance.objectNode();
        int chars = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = ext.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode value = field.getValue();
            String text = value.isTextual() ? value.asText() : value.toString();
            custom.put(field.getKey(), text);
            chars += field.getKey().length() + text.length();
        }
        if (custom.size() > CUSTOM_PAIRS_MAX || chars > CUSTOM_CHARS_MAX) {
            throw new Unsendable(EXT_TOO_LARGE + ": vivo's clientCustomMap takes at most " + CUSTOM_PAIRS_MAX
                    + " pairs and " + CUSTOM_CHARS_MAX + " characters (" + custom.size() + ", " + chars + ")");
        }
        body.set("clientCustomMap", custom);
    }

    /**
     * Current vivo sends a receipt for a message carrying the receipt id registered in its console
     * ({@code callback.id}, the certificate's {@code message_defaults.receipt_id}) besides the URL; without both,
     * none is requested.
     */
    private static void putReceipt(ObjectNode body, Credentials credentials, long taskId, Optional<URI> receiptUrl) {
        String receiptId = Notification.text(credentials.messageDefaults(), "receipt_id");
        String callback = receiptUrl.map(URI::toString).orElse(null);
        if (receiptId == null || callback == null || callback.length() > CALLBACK_MAX) {
            return;
        }
        body.putObject("extra")
                .put("callback", callback)
                .put("callback.id", receiptId)
                .put("callback.param", Long.toString(taskId));
    }

    /** vivo's appId is a number (the SDK's Message.appId is an Integer); sent as a number when it is one. */
    static void putAppId(ObjectNode body, String providerAppId) {
        String appId = providerAppId == null ? "" : providerAppId.trim();
        if (!appId.isEmpty() && appId.length() < 10 && appId.chars().allMatch(Character::isDigit)) {
            body.put("appId", Integer.parseInt(appId));
        } else {
            body.put("appId", appId);
        }
    }

    private static String firstNonBlank(String... texts) {
        for (String text : texts) {
            if (text != null && !text.isBlank()) {
                return text;
            }
        }
        return null;
    }

    // ---- vivo's length ----

    /**
     * vivo's length, read as strictly as its two sources allow: the doc counts a CJK character as two and an emoji
     * as one, the SDK's Validation counts UTF-16 units plus one per CJK character (an emoji is two). Here ASCII
     * counts one and every other code point two, never less than either reading.
     */
    static int vivoLength(String text) {
        int length = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            length += weight(cp);
            i += Character.charCount(cp);
        }
        return length;
    }

    private static int weight(int codePoint) {
        return codePoint < 0x80 ? 1 : 2;
    }

    /** Cuts {@code text} to at most {@code max} of vivo's units, never inside a surrogate pair. */
    static String truncate(String text, int max) {
        int length = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            length += weight(cp);
            if (length > max) {
                return text.substring(0, i);
            }
            i += Character.charCount(cp);
        }
        return text;
    }
}
