package io.imcore.simulators.huawei;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Huawei simulator merges the receipts of many sends into callbacks of at most 100 statuses, as Huawei's receipt
 * API describes, rather than one callback per send.
 */
class HuaweiReceiptsMergedTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final int SENDS = 150;

    @TempDir
    static Path workDir;

    static Vertx vertx;
    static HuaweiSimulator simulator;
    static HttpServer receiptServer;
    static final List<JsonObject> callbacks = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        simulator = new HuaweiSimulator();
        simulator.start(vertx, "127.0.0.1", 0, workDir).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        receiptServer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiptServer.createContext("/receipts", exchange -> {
            callbacks.add(new JsonObject(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiptServer.start();
    }

    @AfterAll
    static void stop() throws Exception {
        receiptServer.stop(0);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void theStatusesOfManySendsArriveInCallbacksOfAtMostOneHundred() throws Exception {
        simulator.registerApp("10001", null, "secret", null);
        simulator.setReceiptUrl("http://127.0.0.1:" + receiptServer.getAddress().getPort() + "/receipts");
        String base = "http://127.0.0.1:" + simulator.port();
        HttpResponse<String> token = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/oauth2/v3/token"))
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "grant_type=client_credentials&client_id=10001&client_secret=secret")).build(),
                HttpResponse.BodyHandlers.ofString());
        String bearer = new JsonObject(token.body()).getString("access_token");
        for (int i = 0; i < SENDS; i++) {
            JsonObject message = new JsonObject()
                    .put("notification", new JsonObject().put("title", "title").put("body", "body " + i))
                    .put("android", new JsonObject().put("bi_tag", "m" + i)
                            .put("notification", new JsonObject().put("click_action", new JsonObject().put("type", 3))))
                    .put("token", new JsonArray().add("token-" + i));
            HttpResponse<String> sent = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v1/10001/messages:send"))
                    .header("Authorization", "Bearer " + bearer).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(new JsonObject().put("validate_only", false)
                            .put("message", message).encode())).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, sent.statusCode(), sent.body());
            assertEquals("80000000", new JsonObject(sent.body()).getString("code"), sent.body());
        }
        Set<String> tokens = new TreeSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (tokens.size() < SENDS) {
            assertTrue(System.nanoTime() < deadline, "statuses received: " + tokens.size());
            Thread.sleep(20);
            tokens.clear();
            for (JsonObject callback : callbacks) {
                callback.getJsonArray("statuses").forEach(s -> tokens.add(((JsonObject) s).getString("token")));
            }
        }
        assertEquals(SENDS, callbacks.stream().mapToInt(c -> c.getJsonArray("statuses").size()).sum(),
                "each send's status once");
        assertTrue(callbacks.stream().allMatch(c -> c.getJsonArray("statuses").size() <= 100), "at most 100 each");
        assertTrue(callbacks.size() < SENDS / 2, "merged: " + callbacks.size() + " callbacks for " + SENDS + " sends");
    }
}
