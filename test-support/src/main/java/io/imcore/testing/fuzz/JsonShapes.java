package io.imcore.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * JSON values drawn from an OpenAPI schema with a seeded {@link Random}: a well-shaped value to start from, and the
 * ways to spoil it (a field of the wrong type, removed, added). Property names are written in snake_case, the wire
 * dialect of every service (common's JsonConfig), whatever the document spells.
 */
final class JsonShapes {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Random random;

    JsonShapes(Random random) {
        this.random = random;
    }

    /** A value of the schema's shape (its constraints are followed loosely: the point is to get past the parser). */
    JsonNode wellShaped(JsonNode schema, int depth) {
        JsonNode chosen = schema;
        for (String choice : new String[] {"allOf", "oneOf", "anyOf"}) {
            if (schema.path(choice).size() > 0) {
                chosen = schema.path(choice).get(0);
            }
        }
        if (chosen.has("enum") && chosen.get("enum").size() > 0) {
            return chosen.get("enum").get(random.nextInt(chosen.get("enum").size()));
        }
        String type = chosen.path("type").asText(chosen.has("properties") ? "object" : "");
        return switch (type) {
            case "object" -> object(chosen, depth);
            case "array" -> array(chosen, depth);
            case "string" -> NODES.textNode(word(chosen.path("minLength").asInt(3), chosen.path("maxLength").asInt(12)));
            case "integer" -> NODES.numberNode(integer(chosen));
            case "number" -> NODES.numberNode(1.5 + random.nextInt(100));
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            default -> NODES.objectNode().put("key", word(1, 8));
        };
    }

    private ObjectNode object(JsonNode schema, int depth) {
        ObjectNode object = NODES.objectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        schema.path("properties").fields().forEachRemaining(property -> {
            if (depth < 6 && (required.contains(property.getKey()) || random.nextInt(10) < 7)) {
                object.set(snakeCase(property.getKey()), wellShaped(property.getValue(), depth + 1));
            }
        });
        return object;
    }

    private ArrayNode array(JsonNode schema, int depth) {
        ArrayNode array = NODES.arrayNode();
        int size = Math.max(schema.path("minItems").asInt(1), 1 + random.nextInt(3));
        for (int i = 0; i < size && depth < 6; i++) {
            array.add(wellShaped(schema.path("items"), depth + 1));
        }
        return array;
    }

    private long integer(JsonNode schema) {
        long min = schema.has("minimum") ? schema.get("minimum").asLong() : 1;
        long max = schema.has("maximum") ? schema.get("maximum").asLong() : Math.max(min, 1000);
        return max <= min ? min : min + (long) (random.nextDouble() * (max - min));
    }

    String word(int minLength, int maxLength) {
        int length = Math.max(minLength, Math.min(maxLength, 3 + random.nextInt(10)));
        StringBuilder text = new StringBuilder("f");
        while (text.length() < length) {
            text.append((char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }

    /**
     * Another value than {@code current}, mostly of another kind: the type confusions and out-of-range numbers a
     * careless or hostile client sends.
     */
    JsonNode wrongTyped(JsonNode current) {
        List<JsonNode> candidates = new ArrayList<>(List.of(
                NODES.textNode("12"), NODES.textNode(""), NODES.numberNode(7), NODES.numberNode(-1),
                NODES.numberNode(1.5), NODES.numberNode(new BigInteger("99999999999999999999999999")),
                NODES.numberNode(Long.MIN_VALUE), NODES.booleanNode(true), NODES.nullNode(),
                NODES.arrayNode().add(1).add("x"), NODES.arrayNode(), NODES.objectNode().put("a", 1),
                NODES.numberNode(1e308)));
        candidates.removeIf(c -> c.equals(current));
        return candidates.get(random.nextInt(candidates.size()));
    }

    /** Every place in the value that holds something: "" (the value itself) and each field or element below it. */
    static List<String> pointers(JsonNode value) {
        List<String> pointers = new ArrayList<>();
        collect(value, "", pointers);
        return pointers;
    }

    private static void collect(JsonNode node, String at, List<String> pointers) {
        pointers.add(at);
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> collect(e.getValue(), at + "/" + e.getKey(), pointers));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), at + "/" + i, pointers);
            }
        }
    }

    /** A copy of {@code root} with the value at {@code pointer} replaced ({@code replacement} null: removed). */
    static JsonNode replaced(JsonNode root, String pointer, JsonNode replacement) {
        if (pointer.isEmpty()) {
            return replacement == null ? NODES.objectNode() : replacement;
        }
        JsonNode copy = root.deepCopy();
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = copy.at(pointer.substring(0, slash));
        String last = pointer.substring(slash + 1);
        if (parent instanceof ObjectNode object) {
            if (replacement == null) {
                object.remove(last);
            } else {
                object.set(last, replacement);
            }
        } else if (parent instanceof ArrayNode array) {
            int index = Integer.parseInt(last);
            if (replacement == null) {
                array.remove(index);
            } else {
                array.set(index, replacement);
            }
        }
        return copy;
    }

    static String snakeCase(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
    }
}
