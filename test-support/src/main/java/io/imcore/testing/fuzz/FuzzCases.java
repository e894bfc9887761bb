package io.imcore.testing.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The requests sent to one route: a well-shaped call, then the same call spoiled in every way the brief of issue 13
 * lists (malformed, wrong-typed, missing and extra fields, huge, deeply nested, invalid UTF-8, U+0000, wrong
 * content types, empty bodies, absurd query parameters and headers), the details drawn from a seeded Random.
 */
final class FuzzCases {

    /** Over every service's {@code quarkus.http.limits.max-body-size} (1M). */
    static final int OVER_THE_BODY_LIMIT = 2 * 1024 * 1024;
    static final int ONE_MEGABYTE = 1024 * 1024;
    static final int DEEP = 10_000;

    private static final List<String> MALFORMED = List.of("{\"a\":", "{,}", "[", "{\"x\":1}}", "{'a':1}",
            "{\"a\":NaN}", "{\"a\":01}", "{\"a\":1,}", "\uFEFF{}", "{\"a\":\"unterminated}", "{\"a\" 1}", "}{");
    private static final List<String> NOT_AN_OBJECT = List.of("[]", "[{}]", "\"text\"", "1", "true", "null", "-0");
    private static final List<String> CONTENT_TYPES = List.of("text/plain", "application/xml",
            "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json; charset=latin1",
            "%%%/;;", "application/octet-stream");
    private static final List<String> ABSURD_NUMBERS = List.of("-1", "0", "9223372036854775807",
            "9223372036854775808", "-9223372036854775809", "99999999999999999999999", "abc", "", "1.5", "1e3",
            " 7 ", "0x1F", "\u0000", "true", "NaN", "\u0661\u0662", "1;2", "7".repeat(1000));
    private static final List<String> ABSURD_HEADERS = List.of("", "   ", "-1", "0", "9223372036854775808", "abc",
            "\u00e9\u00e8", "x".repeat(4096), "Bearer a.b.c", "eyJhbGciOiJub25lIn0.e30.", "null", "1,2", "\t1");
    private static final List<String> HEADERS = List.of("app_id", "access-token", "user_id", "group_id",
            "platform-key", "internal-key", "X-Request-Id", "Accept", "Content-Encoding");
    /** Invalid UTF-8: a lone continuation byte, a truncated sequence, an encoded surrogate, an overlong '/'. */
    private static final List<byte[]> INVALID_UTF8 = List.of(new byte[] {(byte) 0x80}, new byte[] {(byte) 0xC3, 0x28},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xC0, (byte) 0xAF},
            new byte[] {(byte) 0xFF, (byte) 0xFE});
    private static final String PLACEHOLDER = "fuzz-placeholder-7f3";

    private final Random random;
    private final JsonShapes shapes;
    private final Map<String, String> knownValues;

    FuzzCases(Random random, Map<String, String> knownValues) {
        this.random = random;
        this.shapes = new JsonShapes(random);
        this.knownValues = knownValues;
    }

    /** The well-shaped call: the first case, also used to find which caller the route accepts. */
    FuzzCase wellShaped(Route route, Map<String, String> caller) {
        return new FuzzCase("well-shaped", route.method(), path(route, Map.of()), caller,
                route.bodySchema() == null ? null : bytes(validBody(route)), false, false);
    }

    List<FuzzCase> all(Route route, Map<String, String> caller, int randomMutations) {
        List<FuzzCase> cases = new ArrayList<>();
        String path = path(route, Map.of());
        JsonNode valid = route.bodySchema() == null ? JsonNodeFactory.instance.objectNode() : validBody(route);
        Body body = new Body(route, path, caller, cases);
        if (route.bodySchema() != null) {
            body.add("empty body", new byte[0]);
            body.add("no body at all", null);
            for (int i = 0; i < 3; i++) {
                body.add("malformed JSON", pick(MALFORMED).getBytes(StandardCharsets.UTF_8));
            }
            String text = new String(bytes(valid), StandardCharsets.UTF_8);
            body.add("truncated JSON", text.substring(0, 1 + random.nextInt(Math.max(1, text.length() - 1)))
                    .getBytes(StandardCharsets.UTF_8));
            body.add("garbage bytes", randomBytes(1 + random.nextInt(200)));
            for (int i = 0; i < 2; i++) {
                body.add("body not an object", pick(NOT_AN_OBJECT).getBytes(StandardCharsets.UTF_8));
            }
            for (String pointer : JsonShapes.pointers(valid)) {
                if (!pointer.isEmpty()) {
                    body.add("wrong type at " + pointer,
                            bytes(JsonShapes.replaced(valid, pointer, shapes.wrongTyped(valid.at(pointer)))));
                    body.add("missing " + pointer, bytes(JsonShapes.replaced(valid, pointer, null)));
                }
            }
            body.add("every field missing", "{}".getBytes(StandardCharsets.UTF_8));
            body.add("extra field", bytes(withField(valid, "zz_extra_" + shapes.word(1, 6),
                    shapes.wrongTyped(JsonNodeFactory.instance.nullNode()))));
            for (int i = 0; i < randomMutations; i++) {
                body.add("stacked mutations", bytes(mutated(valid, 1 + random.nextInt(3))));
            }
            body.add("1 MB string (over the limit)", inField(valid,
                    ("\"" + "x".repeat(ONE_MEGABYTE) + "\"").getBytes(StandardCharsets.UTF_8)), false, true);
            body.add("512 KB string", inField(valid,
                    ("\"" + "y".repeat(ONE_MEGABYTE / 2) + "\"").getBytes(StandardCharsets.UTF_8)), false, false);
            body.add("array of 100,000 numbers", inField(valid, hugeArray(100_000)), false, false);
            body.add("10,000 nested arrays", nested(DEEP, "[", "]").getBytes(StandardCharsets.UTF_8));
            body.add("10,000 nested objects", nested(DEEP, "{\"a\":", "}").getBytes(StandardCharsets.UTF_8));
            body.add("10,000 nested arrays in a field", inField(valid,
                    nested(DEEP, "[", "]").getBytes(StandardCharsets.UTF_8)), false, false);
            body.add("500 nested objects in a field", inField(valid,
                    nested(500, "{\"a\":", "}").getBytes(StandardCharsets.UTF_8)), false, false);
            for (byte[] invalid : INVALID_UTF8) {
                body.add("invalid UTF-8 in a string", inString(valid, invalid));
            }
            body.add("escaped U+0000 in a string", inString(valid, "\\u0000".getBytes(StandardCharsets.UTF_8)));
            body.add("raw NUL byte in a string", inString(valid, new byte[] {0}));
            body.add("lone surrogate escape", inString(valid, "\\ud800".getBytes(StandardCharsets.UTF_8)));
            for (int i = 0; i < 3; i++) {
                String type = pick(CONTENT_TYPES);
                Map<String, String> headers = new LinkedHashMap<>(caller);
                headers.put("Content-Type", type);
                cases.add(new FuzzCase("Content-Type " + type, route.method(), path, headers, bytes(valid), false,
                        false));
            }
            body.add("chunked body", bytes(valid), true, false);
            body.add("chunked body over the limit", inField(valid,
                    ("\"" + "z".repeat(OVER_THE_BODY_LIMIT) + "\"").getBytes(StandardCharsets.UTF_8)), true, true);
        } else {
            body.add("unexpected malformed body", pick(MALFORMED).getBytes(StandardCharsets.UTF_8));
            body.add("unexpected deep body", nested(DEEP, "[", "]").getBytes(StandardCharsets.UTF_8));
        }
        for (Route.Parameter parameter : route.parametersIn("query")) {
            for (int i = 0; i < 4; i++) {
                String value = pick(ABSURD_NUMBERS);
                body.addAt("query " + parameter.name() + "=" + abbreviate(value),
                        path(route, Map.of(parameter.name(), value)), bytes(valid));
            }
            body.addAt("query " + parameter.name() + " repeated", path(route, Map.of()) + "&" + parameter.name()
                    + "=" + encode(pick(ABSURD_NUMBERS)), bytes(valid));
            body.addAt("query " + parameter.name() + " empty", path(route, Map.of(parameter.name(), "")), bytes(valid));
        }
        for (Route.Parameter parameter : route.parametersIn("path")) {
            for (int i = 0; i < 3; i++) {
                String value = pick(ABSURD_NUMBERS);
                body.addAt("path " + parameter.name() + "=" + abbreviate(value),
                        path(route, Map.of(parameter.name(), value)), bytes(valid));
            }
        }
        body.addAt("unknown query parameter", path + (path.contains("?") ? "&" : "?") + "zz="
                + encode(pick(ABSURD_NUMBERS)), bytes(valid));
        for (int i = 0; i < 6; i++) {
            Map<String, String> headers = new LinkedHashMap<>(caller);
            String name = pick(HEADERS);
            String value = pick(ABSURD_HEADERS);
            headers.put(name, value);
            cases.add(new FuzzCase("header " + name + "=" + abbreviate(value), route.method(), path, headers,
                    route.bodySchema() == null ? null : bytes(valid), false, false));
        }
        return cases;
    }

    /** Collects the cases of one route that differ only in their body or path. */
    private record Body(Route route, String path, Map<String, String> caller, List<FuzzCase> cases) {
        void add(String kind, byte[] body) {
            add(kind, body, false, false);
        }

        void add(String kind, byte[] body, boolean chunked, boolean tooLarge) {
            cases.add(new FuzzCase(kind, route.method(), path, caller, body, chunked, tooLarge));
        }

        void addAt(String kind, String pathAndQuery, byte[] validBody) {
            cases.add(new FuzzCase(kind, route.method(), pathAndQuery, caller,
                    route.bodySchema() == null ? null : validBody, false, false));
        }
    }

    private JsonNode validBody(Route route) {
        return shapes.wellShaped(route.bodySchema(), 0);
    }

    private JsonNode mutated(JsonNode valid, int mutations) {
        JsonNode current = valid;
        for (int i = 0; i < mutations; i++) {
            List<String> pointers = JsonShapes.pointers(current);
            String pointer = pointers.get(random.nextInt(pointers.size()));
            current = switch (random.nextInt(3)) {
                case 0 -> JsonShapes.replaced(current, pointer, shapes.wrongTyped(current.at(pointer)));
                case 1 -> JsonShapes.replaced(current, pointer, null);
                default -> current.isObject() ? withField(current, "zz_" + shapes.word(1, 5),
                        shapes.wrongTyped(JsonNodeFactory.instance.nullNode())) : current;
            };
        }
        return current;
    }

    private static JsonNode withField(JsonNode valid, String name, JsonNode value) {
        if (!valid.isObject()) {
            return valid;
        }
        return ((com.fasterxml.jackson.databind.node.ObjectNode) valid.deepCopy()).set(name, value);
    }

    /** The valid body with one of its fields (or a new one) holding the given raw JSON text. */
    private byte[] inField(JsonNode valid, byte[] rawValue) {
        return substitute(bytes(marked(valid, JsonShapes.pointers(valid).stream().filter(p -> !p.isEmpty()).toList())),
                "\"" + PLACEHOLDER + "\"", rawValue);
    }

    /** The valid body with raw bytes inside one of its strings (or a new string field). */
    private byte[] inString(JsonNode valid, byte[] rawBytes) {
        return substitute(bytes(marked(valid, JsonShapes.pointers(valid).stream()
                .filter(p -> valid.at(p).isTextual()).toList())), PLACEHOLDER,
                concat("ab".getBytes(StandardCharsets.UTF_8), rawBytes));
    }

    /** The valid body with the placeholder at one of the places, or in a new field (a new object if need be). */
    private JsonNode marked(JsonNode valid, List<String> places) {
        JsonNode placeholder = JsonNodeFactory.instance.textNode(PLACEHOLDER);
        if (!places.isEmpty()) {
            return JsonShapes.replaced(valid, pick(places), placeholder);
        }
        return valid.isObject() ? withField(valid, "zz_extra", placeholder)
                : JsonNodeFactory.instance.objectNode().set("zz_extra", placeholder);
    }

    private static byte[] substitute(byte[] text, String marker, byte[] replacement) {
        String asText = new String(text, StandardCharsets.UTF_8);
        int at = asText.indexOf(marker);
        byte[] before = asText.substring(0, at).getBytes(StandardCharsets.UTF_8);
        byte[] after = asText.substring(at + marker.length()).getBytes(StandardCharsets.UTF_8);
        return concat(concat(before, replacement), after);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(a.length + b.length);
        out.writeBytes(a);
        out.writeBytes(b);
        return out.toByteArray();
    }

    private byte[] hugeArray(int size) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < size; i++) {
            array.add(random.nextInt(1000));
        }
        return bytes(array);
    }

    private static String nested(int depth, String open, String close) {
        return open.repeat(depth) + close.repeat(depth);
    }

    private byte[] randomBytes(int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** The route's path with its parameters filled: known values, else a small number, unless overridden. */
    private String path(Route route, Map<String, String> overrides) {
        String path = route.path();
        for (Route.Parameter parameter : route.parametersIn("path")) {
            String value = overrides.getOrDefault(parameter.name(), knownValues.getOrDefault(parameter.name(), "1"));
            path = path.replace("{" + parameter.name() + "}", encode(value));
        }
        StringBuilder query = new StringBuilder();
        for (Route.Parameter parameter : route.parametersIn("query")) {
            String value = overrides.getOrDefault(parameter.name(),
                    knownValues.getOrDefault(parameter.name(), pick(List.of("1", "20", "true"))));
            query.append(query.isEmpty() ? "?" : "&").append(parameter.name()).append('=').append(encode(value));
        }
        return path + query;
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String value) {
        return value.length() > 24 ? value.substring(0, 8) + "...(" + value.length() + " chars)" : value;
    }

    static byte[] bytes(JsonNode node) {
        try {
            return JsonShapes.JSON.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
