package io.imcore.common.api;


/** PostgreSQL text cannot hold U+0000: such input is refused up front with 10002 naming the field. */
public final class StorableText {

    private StorableText() {
    }

    public static void check(String field, String value) {
        if (value != null && value.indexOf('\u0000') >= 0) {
            throw ApiException.badParameter(field, "contains the character U+0000, which cannot be stored");
        }
    }
}
