package io.imcore.common.api;


/**
 * Query parameters are taken as text and read here, so that a missing, malformed or out-of-range value gets a
 * 10002 naming the parameter (a typed JAX-RS parameter would fail with a bare 404).
 */
public final class QueryParams {

    private QueryParams() {
    }

    public static long requiredLong(String name, String value, long min, long max) {
        if (value == null || value.isBlank()) {
            throw ApiException.badParameter(name, "required");
        }
        return parse(name, value, min, max);
    }

    public static long optionalLong(String name, String value, long defaultValue, long min, long max) {
        return value == null || value.isBlank() ? defaultValue : parse(name, value, min, max);
    }

    public static boolean requiredBoolean(String name, String value) {
        if ("true".equalsIgnoreCase(value)) {
            return true;
        }
        if ("false".equalsIgnoreCase(value)) {
            return false;
        }
        throw ApiException.badParameter(name, "true or false required");
    }

    private static long parse(String name, String value, long min, long max) {
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw ApiException.badParameter(name, "must be an integer");
        }
        if (parsed < min || parsed > max) {
            throw ApiException.badParameter(name, "must be between " + min + " and " + max);
        }
        return parsed;
    }
}
