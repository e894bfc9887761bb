package io.imcore.push.notify;

import static io.imcore.push.notify.JsonFields.checkLength;
import static io.imcore.push.notify.JsonFields.integer;
import static io.imcore.push.notify.JsonFields.nonEmptyString;
import static io.imcore.push.notify.JsonFields.optionalObject;
import static io.imcore.push.notify.JsonFields.requiredObject;
import static io.imcore.push.notify.JsonFields.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates and normalizes a {@code POST /push/notify} body (api.md 4.5.2). Every violation is an {@link ApiException}:
 * 10002 naming the field, 12005 for an audience list over 500. The rules and the normalized message format are in
 * docs/push-notify.md.
 */
@ApplicationScoped
public class NotifyParser {

    static final int MAX_AUDIENCE_SIZE = 500;
    static final int MAX_AUDIENCE_VALUE_LENGTH = 128;
    static final int MAX_REQUEST_ID_LENGTH = 128;

    /** What {@code ups} stands for (api.md 4.5.2): the domestic phone-maker group. */
    static final List<Channel> UPS =
            List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU);

    /** The default [ups, cloud], expanded. */
    static final List<Channel> DEFAULT_SEQUENCE = List.of(
            Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU, Channel.FCM);

    private static final String AUDIENCE_FORMS = "the string all or an object with exactly one of tag, alias, user_id, "
            + "push_token";

    private final MessageParser messageParser;

    public NotifyParser() {
        this(Clock.systemUTC());
    }

    /** The clock decides whether show_end_time is in the future. */
    NotifyParser(Clock clock) {
        this.messageParser = new MessageParser(clock);
    }

    public PushRequest parse(JsonNode body) {
        Targeting targeting = parseTargeting(body);
        String requestId = nonEmptyString(setting(body), "request_id", "setting.request_id");
        checkLength("setting.request_id", requestId, MAX_REQUEST_ID_LENGTH);
        MessageParser.Parsed message = messageParser.parse(requiredObject(body, "message", "message"));
        return new PushRequest(targeting.audience(), requestId, targeting.strategy(), targeting.osSequence(),
                message.json(), message.showBeginTime(), message.showEndTime(), message.attachmentUrl());
    }

    /**
     * The audience, distribution_strategy and ospush_sequence of a notify body, under the same rules as
     * {@link #parse}; every other field is ignored (POST /push/audience/count).
     */
    public Targeting parseTargeting(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw ApiException.badParameter("body", "must be a JSON object");
        }
        Audience audience = parseAudience(JsonFields.value(body, "audience"));
        ObjectNode setting = setting(body);
        return new Targeting(audience, parseStrategy(setting),
                parseSequence(JsonFields.value(setting, "ospush_sequence")));
    }

    private static ObjectNode setting(JsonNode body) {
        ObjectNode setting = optionalObject(body, "setting", "setting");
        return setting == null ? JsonNodeFactory.instance.objectNode() : setting;
    }

    private static Audience parseAudience(JsonNode audience) {
        if (audience == null) {
            throw ApiException.badParameter("audience", "is required");
        }
        if (audience.isTextual() && audience.textValue().equals("all")) {
            return Audience.all();
        }
        if (!audience.isObject() || audience.size() != 1) {
            throw ApiException.badParameter("audience", "must be " + AUDIENCE_FORMS);
        }
        String key = audience.fieldNames().next();
        String path = "audience." + key;
        Audience.Form form = switch (key) {
            case "tag" -> Audience.Form.TAG;
            case "alias" -> Audience.Form.ALIAS;
            case "user_id" -> Audience.Form.USER_ID;
            case "push_token" -> Audience.Form.PUSH_TOKEN;
            default -> throw ApiException.badParameter(path, "unknown audience form; audience must be " + AUDIENCE_FORMS);
        };
        JsonNode list = audience.get(key);
        if (!list.isArray() || list.isEmpty()) {
            throw ApiException.badParameter(path, "must be a non-empty array");
        }
        if (list.size() > MAX_AUDIENCE_SIZE) {
            throw new ApiException(ErrorCode.PUSH_TOO_MANY_TARGETS,
                    path + ": more than " + MAX_AUDIENCE_SIZE + " entries");
        }
        if (form == Audience.Form.USER_ID) {
            return new Audience(form, List.of(), List.copyOf(userIds(list, path)));
        }
        return new Audience(form, List.copyOf(audienceValues(list, path)), List.of());
    }

    private static Set<Long> userIds(JsonNode list, String path) {
        Set<Long> userIds = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String elementPath = path + "[" + i + "]";
            long userId = integer(list.get(i), elementPath);
            if (userId <= 0) {
                throw ApiException.badParameter(elementPath, "must be a positive integer");
            }
            userIds.add(userId);
        }
        return userIds;
    }

    private static Set<String> audienceValues(JsonNode list, String path) {
        Set<String> values = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String elementPath = path + "[" + i + "]";
            String value = text(list.get(i), elementPath);
            if (value.isEmpty()) {
                throw ApiException.badParameter(elementPath, "must not be empty");
            }
            checkLength(elementPath, value, MAX_AUDIENCE_VALUE_LENGTH);
            values.add(value);
        }
        return values;
    }

    private static Strategy parseStrategy(JsonNode setting) {
        String name = nonEmptyString(setting, "distribution_strategy", "setting.distribution_strategy");
        if (name == null) {
            return Strategy.COMBINED;
        }
        return Strategy.fromWireName(name).orElseThrow(() -> ApiException.badParameter(
                "setting.distribution_strategy", "must be one of combined, svcpush_only, ospush_only"));
    }

    private static List<Channel> parseSequence(JsonNode names) {
        String path = "setting.ospush_sequence";
        if (names == null) {
            return DEFAULT_SEQUENCE;
        }
        if (!names.isArray() || names.isEmpty()) {
            throw ApiException.badParameter(path, "must be a non-empty array");
        }
        Set<Channel> sequence = new LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String elementPath = path + "[" + i + "]";
            String name = text(names.get(i), elementPath);
            if (name.equals("ups")) {
                sequence.addAll(UPS);
            } else {
                // ios is never listed: iOS devices always use ios (decisions.md 5); svcpush is not an OS channel
                sequence.add(Channel.fromWireName(name)
                        .filter(channel -> channel != Channel.APNS && channel != Channel.SVCPUSH)
                        .orElseThrow(() -> ApiException.badParameter(elementPath,
                                "must be one of ups, cloud, vendor_a, vendor_b, vendor_c, vendor_d, vendor_e")));
            }
        }
        return List.copyOf(sequence);
    }
}
