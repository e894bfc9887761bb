package io.imcore.testing.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One operation of a service as its OpenAPI document describes it: method, path template ({@code {channel}}),
 * its query, header and path parameters, and the schema of its JSON body (null when it takes none).
 */
public record Route(String method, String path, List<Parameter> parameters, JsonNode bodySchema) {

    public record Parameter(String name, String in) {}

    public List<Parameter> parametersIn(String in) {
        return parameters.stream().filter(p -> p.in().equals(in)).toList();
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
