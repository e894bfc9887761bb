package io.imcore.simulators.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.standardwebhooks.Webhook;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo app's receiver accepts what its secret signs, refuses the rest, and lists both. */
class WebhookReceiverTest {

    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static Vertx vertx;
    private static String base;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        int port = new WebhookReceiver().start(vertx, "127.0.0.1", 0).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + port;
        post("/_sim/secret", "{\"secret\":\"" + SECRET + "\"}", null, 0);
    }

    @AfterAll
    static void stop() {
        vertx.close();
    }

    private static HttpResponse<String> post(String path, String body, String signature, long timestamp)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (signature != null) {
            request.header("webhook-id", "evt_1").header("webhook-timestamp", Long.toString(timestamp))
                    .header("webhook-signature", signature);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void verifiesWhatItsSecretSignsAndRefusesTheRest() throws Exception {
        long now = System.currentTimeMillis() / 1000;
        String body = "{\"type\":\"message.before_send\",\"timestamp\":\"2026-12-06T00:00:00Z\",\"data\":{}}";
        HttpResponse<String> signed = post("/demo", body, new Webhook(SECRET).sign("evt_1", now, body), now);
        assertEquals(200, signed.statusCode());
        assertEquals("{\"action\":\"allow\"}", signed.body(), "a before-send event is allowed");
        String forged = new Webhook("whsec_" + "A".repeat(32)).sign("evt_1", now, body);
        assertEquals(401, post("/demo", body, forged, now).statusCode());
        JsonArray received = new JsonArray(HTTP.send(HttpRequest.newBuilder(
                URI.create(base + "/_sim/received?type=message.before_send")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(2, received.size());
        assertEquals(true, received.getJsonObject(0).getBoolean("verified"));
        assertEquals(false, received.getJsonObject(1).getBoolean("verified"));
    }
}
