package io.imcore.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a running service's routes from its own OpenAPI document ({@code /q/openapi}), so that an endpoint added
 * to a service is fuzzed without editing any test.
 */
public final class OpenApiRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private OpenApiRoutes() {
    }

    public static List<Route> of(URI base) {
        JsonNode document = fetch(base.resolve("/q/openapi?format=json"));
        List<Route> routes = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                List<Route.Parameter> parameters = new ArrayList<>();
                op.getValue().path("parameters").forEach(p -> parameters.add(
                        new Route.Parameter(p.path("name").asText(), p.path("in").asText())));
                path.getValue().path("parameters").forEach(p -> parameters.add(
                        new Route.Parameter(p.path("name").asText(), p.path("in").asText())));
                JsonNode content = op.getValue().path("requestBody").path("content");
                JsonNode body = content.isMissingNode() || content.isEmpty() ? null
                        : content.elements().next().path("schema");
                routes.add(new Route(op.getKey().toUpperCase(), path.getKey(), parameters,
                        body == null ? null : resolve(body, document.path("components").path("schemas"), 0)));
            }
        }
        return routes;
    }

    /** The schema with every {@code $ref} replaced by its definition (cut at a depth, for recursive types). */
    private static JsonNode resolve(JsonNode schema, JsonNode definitions, int depth) {
        if (depth > 8) {
            return JSON.createObjectNode();
        }
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().replace("#/components/schemas/", "");
            return resolve(definitions.path(name), definitions, depth + 1);
        }
        if (!schema.isObject()) {
            return schema;
        }
        var copy = JSON.createObjectNode();
        schema.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            switch (e.getKey()) {
                case "properties" -> {
                    var properties = JSON.createObjectNode();
                    value.fields().forEachRemaining(p -> properties.set(p.getKey(),
                            resolve(p.getValue(), definitions, depth + 1)));
                    copy.set("properties", properties);
                }
                case "items", "additionalProperties" -> copy.set(e.getKey(), resolve(value, definitions, depth + 1));
                case "allOf", "oneOf", "anyOf" -> {
                    var choices = JSON.createArrayNode();
                    value.forEach(choice -> choices.add(resolve(choice, definitions, depth + 1)));
                    copy.set(e.getKey(), choices);
                }
                default -> copy.set(e.getKey(), value);
            }
        });
        return copy;
    }

    private static JsonNode fetch(URI uri) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the OpenAPI document at " + uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
