package io.imcore.push.notify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.StorableText;
import java.util.Iterator;
import java.util.Map;

/**
 * Strictly typed reads of a JSON request body: no coercion between strings, numbers and booleans. Every failure is a
 * 10002 naming the field by its full path (e.g. {@code message.ios.sound}). For optional fields, absent and null mean
 * "not set", and so does the empty string for optional strings.
 */
final class JsonFields {

    private JsonFields() {
    }

    /** The field's value, or null when it is absent or JSON null. */
    static JsonNode value(JsonNode object, String name) {
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? null : value;
    }

    static ObjectNode requiredObject(JsonNode object, String name, String path) {
        ObjectNode value = optionalObject(object, name, path);
        if (value == null) {
            throw ApiException.badParameter(path, "is required");
        }
        return value;
    }

    static ObjectNode optionalObject(JsonNode object, String name, String path) {
        JsonNode value = value(object, name);
        if (value == null) {
            return null;
        }
        if (!value.isObject()) {
            throw ApiException.badParameter(path, "must be an object");
        }
        return (ObjectNode) value;
    }

    /** A string that may be empty; null when absent. */
    static String string(JsonNode object, String name, String path) {
        JsonNode value = value(object, name);
        return value == null ? null : text(value, path);
    }

    /** A string where empty means "not set": null when absent, null or empty. */
    static String nonEmptyString(JsonNode object, String name, String path) {
        String value = string(object, name, path);
        return value == null || value.isEmpty() ? null : value;
    }

    static String text(JsonNode value, String path) {
        if (!value.isTextual()) {
            throw ApiException.badParameter(path, "must be a string");
        }
        StorableText.check(path, value.textValue());
        return value.textValue();
    }

    static Boolean optionalBoolean(JsonNode object, String name, String path) {
        JsonNode value = value(object, name);
        if (value == null) {
            return null;
        }
        if (!value.isBoolean()) {
            throw ApiException.badParameter(path, "must be a boolean");
        }
        return value.booleanValue();
    }

    static Long optionalLong(JsonNode object, String name, String path) {
        JsonNode value = value(object, name);
        return value == null ? null : integer(value, path);
    }

    static long integer(JsonNode value, String path) {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ApiException.badParameter(path, "must be an integer");
        }
        return value.longValue();
    }

    /** Limits count characters (Unicode code points), not UTF-16 units or bytes. */
    static void checkLength(String path, String value, int maxCharacters) {
        if (value != null && value.codePointCount(0, value.length()) > maxCharacters) {
            throw ApiException.badParameter(path, "longer than " + maxCharacters + " characters");
        }
    }

    /** Checks every string and field name inside {@code value} for U+0000, which PostgreSQL cannot store. */
    static void checkStorable(String path, JsonNode value) {
        if (value.isTextual()) {
            StorableText.check(path, value.textValue());
        } else if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String fieldPath = path + "." + field.getKey();
                StorableText.check(fieldPath, field.getKey());
                checkStorable(fieldPath, field.getValue());
            }
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                checkStorable(path + "[" + i + "]", value.get(i));
            }
        }
    }
}
