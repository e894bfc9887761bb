package io.imcore.push.notify;

import java.util.List;

/**
 * One of the five audience forms of api.md 4.5.2. {@code values} holds the list of the tag, alias and push_token
 * forms (duplicates dropped); {@code userIds} the list of the user_id form; both are empty for {@code all}.
 */
public record Audience(Form form, List<String> values, List<Long> userIds) {

    public enum Form {
        ALL, TAG, ALIAS, USER_ID, PUSH_TOKEN
    }

    public static Audience all() {
        return new Audience(Form.ALL, List.of(), List.of());
    }
}
