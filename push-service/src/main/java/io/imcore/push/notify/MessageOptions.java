package io.imcore.push.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.pushcontract.Channel;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The phone makers' per-message options (message categories and the like, docs/push-notify.md "Message options"):
 * which channel takes which option, and the values each provider accepts. The one place both validations read: a
 * push's own {@code message.<channel>} options ({@link #ofPush}) and an app's defaults in a certificate's
 * {@code message_defaults} ({@link #ofDefaults}). Options are channel-specific: none is inherited from
 * {@code android}.
 */
public final class MessageOptions {

    /**
     * Huawei Push Kit {@code android.category}: the values of "消息发送方案" (HMS Core guide
     * message-priority-0000001181716924, table "接口传值"). PLAY_VOICE is for data (pass-through) messages only.
     */
    private static final Set<String> HUAWEI_CATEGORIES = ordered("IM", "VOIP", "SUBSCRIPTION", "TRAVEL", "HEALTH",
            "WORK", "ACCOUNT", "EXPRESS", "FINANCE", "DEVICE_REMINDER", "SYSTEM_REMINDER", "MAIL", "PLAY_VOICE",
            "MARKETING");
    private static final String HUAWEI_PASS_THROUGH_ONLY = "PLAY_VOICE";

    /**
     * OPPO push {@code category}, "OPUSH 消息分类细则" (open.oppomobile.com developmentDoc id 13189): communication
     * and service IM, ACCOUNT, DEVICE_REMINDER, ORDER, TODO, SUBSCRIPTION; content and marketing NEWS, CONTENT,
     * MARKETING, SOCIAL.
     */
    private static final Set<String> OPPO_CATEGORIES = ordered("IM", "ACCOUNT", "DEVICE_REMINDER", "ORDER", "TODO",
            "SUBSCRIPTION", "NEWS", "CONTENT", "MARKETING", "SOCIAL");
    /** OPPO push {@code notify_level}, same document: 1 notification bar, 2 plus lock screen, 16 plus banner, sound. */
    private static final Set<Long> OPPO_NOTIFY_LEVELS = ordered(1L, 2L, 16L);

    /**
     * vivo push {@code category} (vivo "推送消息分类说明" and the send API's {@code category}): the system-message
     * categories, which need {@code classification} 1.
     */
    private static final Set<String> VIVO_SYSTEM_CATEGORIES = ordered("IM", "ACCOUNT", "TODO", "DEVICE_REMINDER",
            "ORDER", "SUBSCRIPTION");
    /** vivo's operational-message categories, which need {@code classification} 0. */
    private static final Set<String> VIVO_OPERATIONAL_CATEGORIES = ordered("NEWS", "CONTENT", "MARKETING", "SOCIAL");
    private static final int VIVO_OPERATIONAL = 0;
    private static final int VIVO_SYSTEM = 1;

    /** Meizu {@code noticeBarInfo.noticeMsgType} (MEIZUPUSH/PushAPI README; JavaSdk NoticeMsgType): 0 public, 1 private. */
    private static final Set<Long> MEIZU_NOTICE_MSG_TYPES = ordered(0L, 1L);

    /** Our own bound on free-text options (an id registered in a provider's console). */
    private static final int MAX_ID_LENGTH = 256;

    private static final Option HUAWEI_CATEGORY = Option.text("category", HUAWEI_CATEGORIES);
    private static final Option XIAOMI_CHANNEL_ID = Option.text("channel_id", null);
    private static final Option OPPO_CATEGORY = Option.text("category", OPPO_CATEGORIES);
    private static final Option OPPO_NOTIFY_LEVEL = Option.integer("notify_level", OPPO_NOTIFY_LEVELS);
    private static final Option VIVO_CATEGORY = Option.text("category",
            union(VIVO_SYSTEM_CATEGORIES, VIVO_OPERATIONAL_CATEGORIES));
    private static final Option VIVO_CLASSIFICATION = Option.integer("classification",
            ordered((long) VIVO_OPERATIONAL, (long) VIVO_SYSTEM));
    /** vivo's receipt id ({@code extra.callback.id}), registered in vivo's console with the receipt URL. */
    private static final Option VIVO_RECEIPT_ID = Option.text("receipt_id", null);
    private static final Option MEIZU_NOTICE_MSG_TYPE = Option.integer("notice_msg_type", MEIZU_NOTICE_MSG_TYPES);

    /**
     * What a push may set in {@code message.<channel>} beyond the android fields (Xiaomi's channel_id is one of
     * those).
     */
    private static final Map<Channel, List<Option>> PUSH_OPTIONS = Map.of(
            Channel.HUAWEI, List.of(HUAWEI_CATEGORY),
            Channel.OPPO, List.of(OPPO_CATEGORY, OPPO_NOTIFY_LEVEL),
            Channel.VIVO, List.of(VIVO_CATEGORY, VIVO_CLASSIFICATION),
            Channel.MEIZU, List.of(MEIZU_NOTICE_MSG_TYPE));

    /** What a certificate's message_defaults may hold per channel; ios and cloud have none. */
    private static final Map<Channel, List<Option>> DEFAULT_OPTIONS = Map.of(
            Channel.HUAWEI, List.of(HUAWEI_CATEGORY),
            Channel.XIAOMI, List.of(XIAOMI_CHANNEL_ID),
            Channel.OPPO, List.of(OPPO_CATEGORY, OPPO_NOTIFY_LEVEL),
            Channel.VIVO, List.of(VIVO_CATEGORY, VIVO_CLASSIFICATION, VIVO_RECEIPT_ID),
            Channel.MEIZU, List.of(MEIZU_NOTICE_MSG_TYPE));

    private MessageOptions() {
    }

    /**
     * The options a push sets in {@code message.<channel>} ({@code given}, null when absent), checked; unknown fields
     * are left to the caller. For vivo a category without classification gets the classification it implies.
     *
     * @param path        the object's path for errors, e.g. {@code message.vendor_d}
     * @param messageType text, image or cmd
     */
    static ObjectNode ofPush(Channel channel, JsonNode given, String path, String messageType) {
        ObjectNode options = read(PUSH_OPTIONS.getOrDefault(channel, List.of()), given, path);
        checkCombinations(channel, options, path, "cmd".equals(messageType));
        return options;
    }

    /**
     * A certificate's {@code message_defaults}: a JSON object (null = none) holding only the options of the
     * channel's provider, each valid; anything else is 10002 naming {@code message_defaults.<field>}. Returns the
     * options to store, unset ones (null, "") left out; for vivo the classification a category implies is added.
     */
    public static ObjectNode ofDefaults(Channel channel, JsonNode given) {
        String path = "message_defaults";
        if (given == null || given.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        if (!given.isObject()) {
            throw ApiException.badParameter(path, "must be an object");
        }
        List<Option> allowed = DEFAULT_OPTIONS.getOrDefault(channel, List.of());
        for (Iterator<String> names = given.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (allowed.stream().noneMatch(option -> option.name.equals(name))) {
                throw ApiException.badParameter(path + "." + name, allowed.isEmpty()
                        ? "provider " + channel.provider() + " (" + channel.wireName() + ") takes no message defaults"
                        : "not a message default of provider " + channel.provider() + " (" + channel.wireName()
                                + "); allowed: " + String.join(", ", allowed.stream().map(o -> o.name).toList()));
            }
        }
        ObjectNode options = read(allowed, given, path);
        // a default applies to every message of the app, notifications included
        checkCombinations(channel, options, path, false);
        return options;
    }

    private static ObjectNode read(List<Option> allowed, JsonNode given, String path) {
        ObjectNode options = JsonNodeFactory.instance.objectNode();
        if (given == null) {
            return options;
        }
        for (Option option : allowed) {
            option.read(given, path, options);
        }
        return options;
    }

    private static void checkCombinations(Channel channel, ObjectNode options, String path, boolean passThrough) {
        if (channel == Channel.HUAWEI && HUAWEI_PASS_THROUGH_ONLY.equals(options.path("category").textValue())
                && !passThrough) {
            throw ApiException.badParameter(path + ".category", HUAWEI_PASS_THROUGH_ONLY
                    + " is for pass-through (cmd) messages only");
        }
        if (channel == Channel.VIVO && options.has("category")) {
            String category = options.get("category").textValue();
            int implied = VIVO_SYSTEM_CATEGORIES.contains(category) ? VIVO_SYSTEM : VIVO_OPERATIONAL;
            if (options.has("classification") && options.get("classification").intValue() != implied) {
                throw ApiException.badParameter(path + ".category", category + " is "
                        + (implied == VIVO_SYSTEM ? "a system" : "an operational") + " message category: classification"
                        + " must be " + implied + " or absent");
            }
            options.put("classification", implied);
        }
    }

    /** One option: its JSON name, whether it is an integer (else a string), and its allowed values (null: any). */
    private record Option(String name, boolean integer, Set<?> allowed) {

        static Option text(String name, Set<String> allowed) {
            return new Option(name, false, allowed);
        }

        static Option integer(String name, Set<Long> allowed) {
            return new Option(name, true, allowed);
        }

        /** Copies the option from {@code given} into {@code options} when set (absent, null and "" are not set). */
        void read(JsonNode given, String path, ObjectNode options) {
            String field = path + "." + name;
            if (integer) {
                Long value = JsonFields.optionalLong(given, name, field);
                if (value != null) {
                    checkAllowed(field, value);
                    options.put(name, value.intValue());
                }
                return;
            }
            String value = JsonFields.nonEmptyString(given, name, field);
            if (value != null) {
                checkAllowed(field, value);
                JsonFields.checkLength(field, value, MAX_ID_LENGTH);
                options.put(name, value);
            }
        }

        private void checkAllowed(String field, Object value) {
            if (allowed != null && !allowed.contains(value)) {
                throw ApiException.badParameter(field, "must be one of "
                        + String.join(", ", allowed.stream().map(String::valueOf).toList()));
            }
        }
    }

    @SafeVarargs
    private static <T> Set<T> ordered(T... values) {
        return Collections.unmodifiableSet(new LinkedHashSet<>(List.of(values)));
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new LinkedHashSet<>(first);
        all.addAll(second);
        return Collections.unmodifiableSet(all);
    }
}
