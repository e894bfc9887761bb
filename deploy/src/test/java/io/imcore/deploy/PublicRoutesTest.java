package io.imcore.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The operator surfaces stay inside: no route of the public gateways, the Kubernetes Ingress (deploy/k8s/base) and
 * the local nginx gateway (deploy/gateway/render-nginx.sh), reaches a service's {@code /q/*} (metrics, OpenAPI,
 * Swagger UI, health) or {@code /internal/*}. Probes, Prometheus, the console and the other services call those on
 * the pods' own ports (docs/operations.md "Gateway differences").
 */
class PublicRoutesTest {

    /** Paths every service serves on its own port only; each must get the gateways' "no such endpoint". */
    private static final List<String> INSIDE_ONLY = List.of("/q", "/q/metrics", "/q/openapi", "/q/swagger-ui",
            "/q/swagger-ui/index.html", "/q/health/ready", "/q/dev-ui", "/internal", "/internal/identity",
            "/internal/jwks", "/internal/live/notify", "/internal/push/certificate-test");
    private static final String ERROR_BACKEND = "error-backend";
    private static final Path K8S = Path.of("k8s/base");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void ingressSendsNoInsidePathToAService() throws IOException {
        List<JsonNode> ingresses = new ArrayList<>();
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class)
                .readValues(K8S.resolve("ingress.yaml").toFile())) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document.path("kind").asText().equals("Ingress")) {
                    ingresses.add(document);
                }
            }
        }
        assertFalse(ingresses.isEmpty(), "no Ingress in ingress.yaml");
        for (JsonNode ingress : ingresses) {
            for (String path : INSIDE_ONLY) {
                String backend = ingressBackend(ingress, path);
                assertTrue(backend == null || backend.equals(ERROR_BACKEND), "Ingress "
                        + ingress.path("metadata").path("name").asText() + " sends " + path + " to " + backend);
            }
        }
    }

    /** As the Ingress's defaultBackend, error-backend gets unmatched paths without X-Code: the local gateway's 10002. */
    @Test
    void errorBackendAnswersAPathWithoutAnErrorCodeAsUnknown() throws IOException {
        String config = Files.readString(K8S.resolve("error-backend/default.conf"));
        Matcher noCode = Pattern.compile("(?m)^\\s*\"\"\\s+'(\\{.*})';$").matcher(config);
        assertTrue(noCode.find(), "error-backend/default.conf maps no empty X-Code");
        JsonNode envelope = JSON.readTree(noCode.group(1));
        assertEquals(10002, envelope.path("code").asInt());
        assertEquals("no such endpoint", envelope.path("message").asText());
    }

    @Test
    void localGatewayAnswersEveryInsidePathItself() throws Exception {
        Map<String, String> locations = nginxLocations(renderLocalGateway());
        for (String path : INSIDE_ONLY) {
            String location = nginxLocation(locations, path);
            assertNotNull(location, "the local gateway has no location for " + path);
            assertFalse(locations.get(location).contains("proxy_pass"),
                    "the local gateway's location " + location + " passes " + path + " to a service");
        }
    }

    /**
     * The Service a Kubernetes Ingress sends {@code path} to: its rules by the Ingress API's matching (the longest
     * matching path, Exact before Prefix at equal length; a Prefix path matches whole path elements), else its
     * defaultBackend; null when neither.
     */
    private static String ingressBackend(JsonNode ingress, String path) {
        String best = null;
        int bestRank = -1;
        for (JsonNode rule : ingress.path("spec").path("rules")) {
            for (JsonNode candidate : rule.path("http").path("paths")) {
                String prefix = candidate.path("path").asText();
                boolean exact = candidate.path("pathType").asText().equals("Exact");
                String trimmed = prefix.replaceAll("/+$", "");
                boolean matches = exact ? path.equals(prefix)
                        : trimmed.isEmpty() || path.equals(trimmed) || path.startsWith(trimmed + "/");
                int rank = prefix.length() * 2 + (exact ? 1 : 0);
                if (matches && rank > bestRank) {
                    bestRank = rank;
                    best = candidate.path("backend").path("service").path("name").asText();
                }
            }
        }
        if (best != null) {
            return best;
        }
        JsonNode fallback = ingress.path("spec").path("defaultBackend");
        return fallback.isMissingNode() ? null : fallback.path("service").path("name").asText();
    }

    /** The local gateway's nginx config as up.sh renders it (any ports: they do not change the locations). */
    private static String renderLocalGateway() throws Exception {
        Path state = Files.createTempDirectory("gateway");
        Process process = new ProcessBuilder("bash", "gateway/render-nginx.sh", "8080", state.toString(),
                state.resolve("error.log").toString(), "auth-service=1", "message-service=2", "push-service=3",
                "console=4").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String config = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), "render-nginx.sh failed");
        return config;
    }

    /** The API server's locations: "= /path" or "/prefix" to the block's body. Named (@) locations are not routes. */
    private static Map<String, String> nginxLocations(String config) {
        Map<String, String> locations = new LinkedHashMap<>();
        Matcher block = Pattern.compile("(?s)\\n\\s*location\\s+([^{]+?)\\s*\\{(.*?)\\n\\s*}").matcher(config);
        while (block.find()) {
            String name = block.group(1).trim();
            assertFalse(name.startsWith("~"), "regex location " + name + ": extend this test to match it");
            if (!name.startsWith("@")) {
                locations.put(name, block.group(2));
            }
        }
        assertFalse(locations.isEmpty(), "no location in the rendered gateway config");
        return locations;
    }

    /** nginx's choice for {@code path} among exact and prefix locations: the exact one, else the longest prefix. */
    private static String nginxLocation(Map<String, String> locations, String path) {
        if (locations.containsKey("= " + path)) {
            return "= " + path;
        }
        String best = null;
        for (String name : locations.keySet()) {
            if (!name.startsWith("=") && path.startsWith(name) && (best == null || name.length() > best.length())) {
                best = name;
            }
        }
        return best;
    }
}
