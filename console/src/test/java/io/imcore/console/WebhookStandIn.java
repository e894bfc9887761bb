package io.imcore.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * message-service's webhook admin API as WebhookResource and WordFilterResource answer it (docs/webhooks.md), per app
 * in memory, for the browser tests' stand-in of message-service: {@code POST /app/webhook} answers a new secret and
 * enables a disabled endpoint, refuses a URL on a private or loopback address with WebhookService's 10002;
 * {@code GET /app/webhook} masks the secret; the delivery log newest first with {@code limit} and {@code before_id};
 * resend; the word filter read and replaced. What the console sent is kept for the test to check.
 */
final class WebhookStandIn {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What message-service's POST /app/webhook accepts (WebhookEvents.SUBSCRIBABLE). */
    private static final Set<String> EVENTS = Set.of("*", "message.created", "message.recalled", "message.edited",
            "message.read", "group.created", "group.members_added", "group.members_removed", "group.destroyed",
            "user.registered", "user.changed", "push.task.finished", "offline_push.failed");

    /** One app's state: its webhook (null: none), deliveries (oldest first), word filter (null: none). */
    static final class AppState {
        volatile ObjectNode webhook;
        volatile String secret;
        final List<ObjectNode> deliveries = new CopyOnWriteArrayList<>();
        final List<Long> resent = new CopyOnWriteArrayList<>();
        volatile ObjectNode wordFilter;
    }

    private final Map<String, AppState> apps = new ConcurrentHashMap<>();

    AppState app(String appId) {
        return apps.computeIfAbsent(appId, id -> new AppState());
    }

    /** Deliveries 1..count of an app (ids global to the app's list), the odd ones delivered, the even ones failing. */
    void addDeliveries(String appId, int count) {
        AppState app = app(appId);
        for (int i = 1; i <= count; i++) {
            ObjectNode d = JSON.createObjectNode();
            d.put("id", i).put("event_id", "evt_msg_created_" + (1000 + i)).put("type", "message.created");
            boolean delivered = i % 2 == 1;
            d.put("state", delivered ? "delivered" : "pending").put("attempts", delivered ? 1 : 3);
            d.put("last_status", delivered ? 200 : 500).put("last_latency_ms", 10 + i);
            d.put("last_answer", delivered ? "ok " + i : "upstream failed " + i);
            d.put("created_at", Instant.parse("2026-12-06T07:00:00Z").plusSeconds(i).toString());
            app.deliveries.add(d);
        }
    }

    /** The endpoint stopped as the dispatcher stops it after 24 h of failures. */
    void disable(String appId, String reason) {
        app(appId).webhook.put("disabled", true).put("disabled_at", "2026-12-05T06:00:00Z")
                .put("disabled_reason", reason);
    }

    void handle(HttpExchange exchange) throws IOException {
        String appId = exchange.getRequestHeaders().getFirst("app_id");
        if (exchange.getRequestHeaders().getFirst("access-token") == null || appId == null) {
            answer(exchange, 10010, "access-token: required", null);
            return;
        }
        AppState app = app(appId);
        String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
        JsonNode body = exchange.getRequestMethod().equals("POST")
                ? JSON.readTree(exchange.getRequestBody().readAllBytes()) : null;
        switch (route) {
            case "GET /app/webhook" -> answer(exchange, 200, "ok", app.webhook == null ? null : app.webhook.deepCopy()
                    .put("secret", "whsec_****" + app.secret.substring(app.secret.length() - 4)));
            case "POST /app/webhook" -> saveWebhook(exchange, app, body);
            case "GET /app/webhook/deliveries" -> deliveries(exchange, app);
            case "POST /app/webhook/deliveries/resend" -> {
                long id = body.path("id").asLong();
                if (!body.path("id").isIntegralNumber() || app.deliveries.stream()
                        .noneMatch(d -> d.path("id").asLong() == id)) {
                    answer(exchange, 10002, "id: no such delivery in this app", null);
                } else {
                    app.resent.add(id);
                    answer(exchange, 200, "ok", JSON.getNodeFactory().booleanNode(true));
                }
            }
            case "GET /app/word_filter" -> answer(exchange, 200, "ok", app.wordFilter);
            case "POST /app/word_filter" -> {
                String action = body.path("action").asText("");
                if (!action.equals("refuse") && !action.equals("mask")) {
                    answer(exchange, 10002, "action: must be refuse or mask", null);
                } else {
                    ObjectNode filter = JSON.createObjectNode().put("action", action);
                    ArrayNode words = filter.putArray("words");
                    body.path("words").forEach(word -> words.add(word.asText().strip()));
                    app.wordFilter = filter;
                    answer(exchange, 200, "ok", filter);
                }
            }
            default -> {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
            }
        }
    }

    private void saveWebhook(HttpExchange exchange, AppState app, JsonNode body) throws IOException {
        String url = body.path("url").asText("");
        if (url.isBlank()) {
            answer(exchange, 10002, "url: required", null);
            return;
        }
        String host = URI.create(url).getHost();
        if (host == null || host.equals("localhost") || host.startsWith("127.") || host.startsWith("10.")
                || host.startsWith("192.168.") || host.startsWith("169.254.")) {
            answer(exchange, 10002, "url: the host is not a public address", null);
            return;
        }
        for (JsonNode event : body.path("events")) {
            if (!EVENTS.contains(event.asText())) {
                answer(exchange, 10002, "events: unknown event type " + event.asText(), null);
                return;
            }
        }
        JsonNode timeout = body.path("hook_timeout_ms");
        if (!timeout.isMissingNode() && !timeout.isNull()
                && (!timeout.isIntegralNumber() || timeout.asInt() < 1 || timeout.asInt() > 2000)) {
            answer(exchange, 10002, "hook_timeout_ms: must be between 1 and 2000", null);
            return;
        }
        ObjectNode webhook = JSON.createObjectNode().put("url", url);
        webhook.set("events", body.path("events"));
        webhook.put("before_send", body.path("before_send").asBoolean(false));
        webhook.put("hook_timeout_ms", timeout.isIntegralNumber() ? timeout.asInt() : 500);
        webhook.put("hook_fail_open", body.path("hook_fail_open").asBoolean(true));
        webhook.put("batch_size", body.path("batch_size").asInt(1));
        webhook.put("disabled", false).putNull("disabled_at").putNull("disabled_reason");
        app.webhook = webhook;
        app.secret = "whsec_" + UUID.randomUUID().toString().replace("-", "");
        answer(exchange, 200, "ok", JSON.createObjectNode().put("secret", app.secret));
    }

    private void deliveries(HttpExchange exchange, AppState app) throws IOException {
        Map<String, String> query = ConsoleStack.query(exchange);
        long before = Long.parseLong(query.getOrDefault("before_id", Long.toString(Long.MAX_VALUE)));
        int limit = Integer.parseInt(query.getOrDefault("limit", "20"));
        List<ObjectNode> newestFirst = new ArrayList<>(app.deliveries);
        Collections.reverse(newestFirst);
        ArrayNode page = JSON.createArrayNode();
        for (ObjectNode d : newestFirst) {
            if (d.path("id").asLong() < before && page.size() < limit) {
                page.add(d);
            }
        }
        answer(exchange, 200, "ok", page);
    }

    private static void answer(HttpExchange exchange, int code, String message, JsonNode data) throws IOException {
        ObjectNode envelope = JSON.createObjectNode().put("code", code).put("message", message);
        envelope.set("data", data);
        byte[] bytes = JSON.writeValueAsString(envelope).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
