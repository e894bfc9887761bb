package io.imcore.pushworker.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;

/**
 * The message of a task, in its normalized form (docs/push-notify.md "The normalized message"), with typed reads.
 * Adapters map these fields to their provider's payload and truncate texts to the provider's limits.
 */
public record Notification(long taskId, String appId, ObjectNode message) {

    /** text, image or cmd (cmd: pass-through data, not shown in the notification bar). */
    public String type() {
        return message.path("type").asText("text");
    }

    public boolean isPassThrough() {
        return "cmd".equals(type());
    }

    public String title() {
        return message.path("title").asText("");
    }

    public String body() {
        return message.path("body").asText("");
    }

    /** big_text, or null. */
    public String bigText() {
        return text(message, "big_text");
    }

    /** attachment_url, or null. */
    public String attachmentUrl() {
        return text(message, "attachment_url");
    }

    /**
     * collapse_key (ASCII, at most 64 bytes: notifications with the same key replace each other on the device), or
     * null when absent, null or empty.
     */
    public String collapseKey() {
        return text(message, "collapse_key");
    }

    /**
     * notify_id (the Android notification id of the conversation, 1..2147483647), or null when absent, null, not an
     * integer or out of that range: an adapter then sends no id of its own and the provider's default applies.
     */
    public Integer notifyId() {
        JsonNode value = message.get("notify_id");
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            return null;
        }
        long id = value.asLong();
        return id >= 1 && id <= Integer.MAX_VALUE ? (int) id : null;
    }

    /** group (a per-conversation grouping key, at most 64 ASCII characters), or null when absent, null or empty. */
    public String group() {
        return text(message, "group");
    }

    /** ext (custom key/values for the app), or an empty object. */
    public ObjectNode ext() {
        JsonNode ext = message.get("ext");
        return ext instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    }

    /** The ios extras (sound, content_available, mutable_content, category, thread_id, subtitle, ios_collapse_id). */
    public ObjectNode ios() {
        JsonNode ios = message.get("ios");
        return ios instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    }

    /**
     * The effective Android settings of an Android OS channel (sound, channel_id, click_action, intent, and
     * badge_class on Huawei, push_mode and classification on vivo), already merged with android's; empty
     * when nothing is set (use the provider's defaults: open the app on click).
     */
    public ObjectNode channelSettings(Channel channel) {
        JsonNode settings = message.path("channels").get(channel.wireName());
        return settings instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
    }

    /**
     * A per-channel message option (for example {@code category}): the push's own value in
     * {@code channels.<channel>}, else the app's default from its certificate's {@code message_defaults}, else null.
     * The adapter applies its provider's built-in default to null.
     */
    public JsonNode option(Channel channel, Credentials credentials, String field) {
        JsonNode own = channelSettings(channel).get(field);
        if (own != null && !own.isNull()) {
            return own;
        }
        JsonNode byDefault = credentials.messageDefaults().get(field);
        return byDefault == null || byDefault.isNull() ? null : byDefault;
    }

    /** A text field of an object, or null when absent, null or empty. */
    public static String text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value == null || value.isNull() || value.asText().isEmpty() ? null : value.asText();
    }
}
