package io.imcore.testing.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One request the fuzzer sends. {@code tooLarge}: the body is over the service's size limit, so the answer must be
 * 10002 and come quickly. {@code chunked}: the body is sent without a Content-Length.
 */
record FuzzCase(String kind, String method, String pathAndQuery, Map<String, String> headers, byte[] body,
        boolean chunked, boolean tooLarge) {

    String describe() {
        String shownBody = body == null ? "(no body)" : body.length > 160
                ? new String(body, 0, 160, StandardCharsets.UTF_8) + "... (" + body.length + " bytes)"
                : new String(body, StandardCharsets.UTF_8);
        Map<String, String> shownHeaders = new java.util.TreeMap<>();
        headers.forEach((name, value) -> shownHeaders.put(name, value.length() > 40
                ? value.substring(0, 40) + "... (" + value.length() + " chars)" : value));
        return kind + ": " + method + " " + abbreviate(pathAndQuery) + " headers " + shownHeaders
                + (chunked ? " chunked" : "") + " body " + shownBody;
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "... (" + text.length() + " chars)" : text;
    }
}
