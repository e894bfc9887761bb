package io.imcore.pushworker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in for message-service's {@code POST /internal/live/notify} (its contract: docs/live-protocol.md) so the
 * worker's svcpush path can be tested without a live socket: users put {@link #online} count as connected. The real
 * endpoint is tested in message-service and end to end by deploy/local/smoke.sh.
 */
public final class LiveNotifyStandIn {

    public static final Set<Long> online = ConcurrentHashMap.newKeySet();
    public static final List<JsonNode> calls = new CopyOnWriteArrayList<>();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static HttpServer server;

    private LiveNotifyStandIn() {}

    static synchronized int start(String internalKey) throws IOException {
        if (server == null) {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/internal/live/notify", exchange -> {
                JsonNode body = MAPPER.readTree(exchange.getRequestBody());
                ObjectNode answer = MAPPER.createObjectNode();
                if (!internalKey.equals(exchange.getRequestHeaders().getFirst("internal-key"))) {
                    answer.put("code", 10010).put("message", "internal-key missing or wrong");
                } else {
                    calls.add(body);
                    answer.put("code", 200);
                    ObjectNode data = answer.putObject("data");
                    int i = 0;
                    for (JsonNode device : body.path("devices")) {
                        data.withArray(online.contains(device.path("user_id").asLong()) ? "delivered" : "offline")
                                .add(i++);
                    }
                }
                byte[] bytes = MAPPER.writeValueAsBytes(answer);
                exchange.getResponseHeaders().add("content-type", "application/json");
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
                exchange.close();
            });
            server.start();
        }
        return server.getAddress().getPort();
    }
}
