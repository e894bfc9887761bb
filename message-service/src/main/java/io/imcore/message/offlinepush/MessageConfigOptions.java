package io.imcore.message.offlinepush;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.events.MessageEvent.PushOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * What a message's {@code config} (a free string of api.md) says about its offline push, when it is a JSON object
 * (docs/offline-push.md "What the sender controls"):
 * {@code {"offline_push":{"enabled":false,"title":"...","body":"..."},"mentions":[10001],"mention_all":true}}.
 * Anything else in config, or a config that is not JSON, is ignored: config stays the app's own field.
 */
record MessageConfigOptions(PushOptions push, List<Long> mentions, boolean mentionAll) {

    private static final MessageConfigOptions NONE = new MessageConfigOptions(null, List.of(), false);

    static MessageConfigOptions parse(ObjectMapper mapper, String config) {
        // most configs say nothing of push: skip the parse unless a key we read can be in it
        if (config == null || !(config.contains("offline_push") || config.contains("mention"))) {
            return NONE;
        }
        JsonNode root;
        try {
            root = mapper.readTree(config);
        } catch (Exception notJson) {
            return NONE;
        }
        if (root == null || !root.isObject()) {
            return NONE;
        }
        PushOptions push = null;
        JsonNode options = root.get("offline_push");
        if (options != null && options.isObject()) {
            JsonNode enabled = options.get("enabled");
            push = new PushOptions(enabled != null && enabled.isBoolean() ? enabled.booleanValue() : null,
                    text(options, "title"), text(options, "body"));
        }
        List<Long> mentions = new ArrayList<>();
        JsonNode listed = root.get("mentions");
        if (listed != null && listed.isArray()) {
            for (JsonNode id : listed) {
                if (id.canConvertToExactIntegral() && id.asLong() > 0) {
                    mentions.add(id.asLong());
                }
            }
        }
        JsonNode all = root.get("mention_all");
        return new MessageConfigOptions(push, mentions, all != null && all.isBoolean() && all.booleanValue());
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object.get(field);
        return value != null && value.isTextual() && !value.asText().isEmpty() ? value.asText() : null;
    }
}
