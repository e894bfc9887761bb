package io.imcore.console.backend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.arc.Arc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The console's only way to our services: their public APIs, called server side with the session's credentials
 * (which never leave this process). Every answer is read as the envelope; a service that cannot be reached or
 * answers something else becomes an answer with code 0 and a message saying what happened, so a page can show it.
 */
@ApplicationScoped
public class BackendClient {

    /** Which service a call goes to; each has its own base URL (in the local stack all are the gateway). */
    public enum Service { AUTH, MESSAGE, PUSH, PUSH_WORKER }

    /** The envelope: code, message and data (null when absent). */
    public record Answer(int code, String message, JsonNode data) {
        public boolean ok() {
            return code == 200;
        }

        /** "code: message", for a page. */
        public String error() {
            return code == 0 ? message : code + ": " + message;
        }
    }

    /** A call outside a page's request (none today) waits at most this; a page's calls share its PageBudget. */
    private static final Duration TIMEOUT = Duration.ofSeconds(8);
    /** How the console names itself: push-service records a push it sends as sent "in the console" (sent_via). */
    private static final String USER_AGENT = "imcore-console";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @Inject
    ObjectMapper json;
    @Inject
    Instance<PageBudget> pageBudget;

    @ConfigProperty(name = "im.console.auth-service-url")
    String authUrl;
    @ConfigProperty(name = "im.console.message-service-url")
    String messageUrl;
    @ConfigProperty(name = "im.console.push-service-url")
    String pushUrl;
    @ConfigProperty(name = "im.console.push-worker-url")
    String pushWorkerUrl;

    public String baseUrl(Service service) {
        String url = switch (service) {
            case AUTH -> authUrl;
            case MESSAGE -> messageUrl;
            case PUSH -> pushUrl;
            case PUSH_WORKER -> pushWorkerUrl;
        };
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    public Answer get(Service service, String pathAndQuery, Map<String, String> headers) {
        return call(service, "GET", pathAndQuery, headers, null);
    }

    public Answer post(Service service, String pathAndQuery, Map<String, String> headers, Object body) {
        return call(service, "POST", pathAndQuery, headers, body);
    }

    public Answer put(Service service, String pathAndQuery, Map<String, String> headers, Object body) {
        return call(service, "PUT", pathAndQuery, headers, body);
    }

    private Answer call(Service service, String method, String pathAndQuery, Map<String, String> headers,
            Object body) {
        String url = baseUrl(service) + pathAndQuery;
        Duration left = timeLeft();
        if (left.toMillis() <= 0) {
            return new Answer(0, service.name().toLowerCase().replace('_', '-')
                    + " not asked: this page used up its time (im.console.page-budget)", null);
        }
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(left)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            headers.forEach(request::header);
            request.header("User-Agent", USER_AGENT);
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return envelope(response);
        } catch (IOException e) {
            return new Answer(0, service.name().toLowerCase().replace('_', '-') + " cannot be reached ("
                    + e.getClass().getSimpleName() + ")", null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "interrupted", null);
        }
    }

    private Answer envelope(HttpResponse<String> response) {
        try {
            JsonNode node = json.readTree(response.body());
            if (node != null && node.has("code")) {
                JsonNode data = node.get("data");
                return new Answer(node.get("code").asInt(), node.path("message").asText(""),
                        data == null || data.isNull() ? null : data);
            }
        } catch (JsonProcessingException notJson) {
            // falls through to the answer below
        }
        return new Answer(0, "unexpected answer: HTTP " + response.statusCode(), null);
    }

    /** Plain text of a service's own endpoint (health, metrics), or null when it does not answer 200. */
    public String text(Service service, String path) {
        Duration left = timeLeft();
        if (left.toMillis() <= 0) {
            return null;
        }
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl(service) + path))
                    .timeout(left).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Bytes fetched from a URL a service handed out (a presigned store URL), with their content type. */
    public record Bytes(byte[] body, String contentType) {}

    /**
     * The body of a URL a service answered (a file store's presigned GET), or null when it does not answer 200 or is
     * longer than {@code limit} bytes.
     */
    public Bytes bytes(String url, int limit) {
        Duration left = timeLeft();
        if (left.toMillis() <= 0) {
            return null;
        }
        try {
            HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(left).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            return response.statusCode() == 200 && response.body().length <= limit
                    ? new Bytes(response.body(), response.headers().firstValue("Content-Type").orElse("")) : null;
        } catch (IOException | IllegalArgumentException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** What the current page has left of its budget; outside a request, the fixed timeout. */
    Duration timeLeft() {
        return Arc.container().requestContext().isActive() ? pageBudget.get().left() : TIMEOUT;
    }

    /** JSON data as plain maps and lists, which templates read by property name. */
    public Object plain(JsonNode data) {
        return data == null ? null : json.convertValue(data, Object.class);
    }

    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> plainList(JsonNode data) {
        return data == null || !data.isArray() ? List.of() : (List<Map<String, Object>>) plain(data);
    }
}
