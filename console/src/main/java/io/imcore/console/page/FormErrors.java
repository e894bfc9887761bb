package io.imcore.console.page;

import io.imcore.console.backend.BackendClient.Answer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A form's error messages: one per field and a general one, each "" when none (Qute renders strictly). */
public final class FormErrors {

    public static final String GENERAL = "general";
    /** The services' 10002 messages start with the field they name: "url: the host is not a public address". */
    private static final Pattern FIELD_MESSAGE = Pattern.compile("^([a-z_]+)\\b.*", Pattern.DOTALL);

    private FormErrors() {
    }

    /** No error yet: every field's message and the general one empty. */
    public static Map<String, String> none(List<String> fields) {
        Map<String, String> errors = new LinkedHashMap<>();
        fields.forEach(field -> errors.put(field, ""));
        errors.put(GENERAL, "");
        return errors;
    }

    /** Where a refusal's message goes: the field of {@code errors} a 10002 names, else {@link #GENERAL}. */
    public static String keyOf(Answer refusal, Map<String, String> errors) {
        Matcher field = FIELD_MESSAGE.matcher(refusal.message());
        return refusal.code() == 10002 && field.matches() && errors.containsKey(field.group(1))
                ? field.group(1) : GENERAL;
    }
}
