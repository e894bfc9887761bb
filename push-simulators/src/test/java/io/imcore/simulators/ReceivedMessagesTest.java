package io.imcore.simulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.simulators.registry.Simulators;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The receive times the offline push benchmark reads: /_sim/received per chat message, received_at per request. */
class ReceivedMessagesTest {

    @TempDir
    static Path workDir;

    static Simulators simulators;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        simulators = Simulators.start(workDir, 0);
    }

    @AfterAll
    static void stop() throws Exception {
        simulators.close();
    }

    @BeforeEach
    void reset() {
        simulators.resetAll();
    }

    @Test
    void msgIdIsFoundPlainOrInsideAJsonString() {
        assertEquals(42L, Recorder.msgId("{\"conversation_id\":\"7\",\"msg_id\":\"42\"}"));
        // Huawei's message.data and OPPO's action_parameters: the data is a JSON string in the JSON body
        String nested = new JsonObject().put("message", new JsonObject()
                .put("data", "{\"conversation_type\":\"direct\",\"msg_id\":\"1234567890123\"}")).encode();
        assertEquals(1234567890123L, Recorder.msgId(nested));
        String twice = new JsonObject().put("outer", nested).encode();
        assertEquals(1234567890123L, Recorder.msgId(twice));
        assertEquals(5L, Recorder.msgId("{\"msg_id\" : \"5\"}"));
        assertNull(Recorder.msgId("{\"task_id\":\"5\"}"));
        assertNull(Recorder.msgId("{\"msg_id\":5}"));
        assertNull(Recorder.msgId(null));
    }

    @Test
    void recorderKeepsFirstAndLastDeliveryPerMessage() throws Exception {
        Recorder recorder = new Recorder();
        long before = System.currentTimeMillis();
        recorder.delivered("a", "{\"msg_id\":\"9\"}");
        Thread.sleep(5);
        recorder.delivered("b", "{\"msg_id\":\"9\"}");
        recorder.delivered("c", "{\"no\":\"id\"}");
        List<Recorder.Received> received = recorder.received(before);
        assertEquals(1, received.size());
        Recorder.Received r = received.get(0);
        assertEquals(9L, r.msgId());
        assertEquals(2, r.deliveries());
        assertTrue(r.firstMillis() >= before && r.lastMillis() > r.firstMillis(), r.toString());
        assertEquals(3, recorder.deliveries());
        assertTrue(recorder.received(r.firstMillis() + 1).isEmpty(), "since filters on the first delivery");
        recorder.reset();
        assertTrue(recorder.received(0).isEmpty());
    }

    @Test
    void receivedEndpointAndRequestTimesOverHttp() throws Exception {
        ProviderSimulator xiaomi = simulators.get("vendor_b");
        String base = "http://127.0.0.1:" + xiaomi.port();
        long before = System.currentTimeMillis();
        Map<String, String> form = new LinkedHashMap<>();
        form.put("registration_id", "tok-1,tok-2");
        form.put("restricted_package_name", "com.example.bench");
        form.put("title", "Alice");
        form.put("description", "hello");
        form.put("extra.notify_effect", "1");
        form.put("payload", "{\"conversation_type\":\"direct\",\"conversation_id\":\"10001\",\"msg_id\":\"777\"}");
        String body = form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> sent = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/v3/message/regid"))
                .header("Authorization", "key=secret").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(0, new JsonObject(sent.body()).getInteger("code"), sent.body());
        long after = System.currentTimeMillis();

        JsonObject received = get(base + "/_sim/received?since=" + before);
        assertEquals("vendor_b", received.getString("channel"));
        JsonArray messages = received.getJsonArray("messages");
        assertEquals(1, messages.size(), received.encode());
        JsonObject m = messages.getJsonObject(0);
        assertEquals("777", m.getString("msg_id"));
        assertEquals(2, m.getInteger("deliveries"));
        assertTrue(m.getLong("first") >= before && m.getLong("last") <= after, m.encode());
        assertEquals(0, get(base + "/_sim/received?since=" + (after + 1)).getJsonArray("messages").size());

        JsonObject request = get(base + "/_sim/requests?limit=1").getJsonArray("requests").getJsonObject(0);
        assertEquals("/v3/message/regid", request.getString("path"));
        long at = request.getLong("received_at");
        assertTrue(at >= before && at <= after, request.encode());

        HttpResponse<String> bad = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/_sim/received?since=x"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode());
    }

    static JsonObject get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return new JsonObject(r.body());
    }
}
