package io.imcore.pushworker.channel.vivo;

import static io.imcore.pushworker.channel.AdapterTestSupport.notification;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.targetedDeliveries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.imcore.common.push.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.vivo.VivoSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class VivoAdapterTest {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final VivoSimulator simulator = new VivoSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(simulator);

    static ChannelSettings settings(Optional<URI> receiptUrl) {
        return AdapterTestSupport.settings(Channel.VENDOR_D, running.base(), Optional.empty(), receiptUrl);
    }

    static Credentials credentials(String secret, long version) {
        return AdapterTestSupport.credentials(Channel.VENDOR_D, "vivo-prod", "10004", "key-abc", secret, version);
    }

    static Notification simple(long taskId) throws Exception {
        return notification(taskId, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"Hello\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_d\":{\"push_mode\":0,\"classification\":0}}}");
    }

    static List<Delivery> deliveries(String... tokens) {
        return targetedDeliveries("vivo-prod", tokens);
    }

    static List<Recorder.Request> requests(String path) {
        return recorded(simulator, path::equals);
    }

    static JsonNode json(Recorder.Request request) throws Exception {
        return MAPPER.readTree(request.body());
    }

    @Test
    void mapsTheMessageFieldByField() throws Exception {
        long end = Instant.now().getEpochSecond() + 3600;
        String longTitle = "标题".repeat(15) + "abc"; // 60 units + 3: cut to 40 units = 20 CJK characters
        Notification n = notification(77, "{\"type\":\"text\",\"title\":\"" + longTitle + "\",\"body\":\""
                + "x".repeat(120) + "\",\"badge\":\"+1\",\"ext\":{\"k\":\"v\",\"n\":1},\"show_end_time\":" + end
                + ",\"attachment_url\":\"https://img.example/a.png\",\"channels\":{\"vendor_d\":{\"sound\":\"s\","
                + "\"channel_id\":\"c\",\"click_action\":\"intent\",\"intent\":\"intent://chat/1#Intent;end\","
                + "\"push_mode\":0,\"classification\":1}}}");
        VivoAdapter adapter = new VivoAdapter(settings(Optional.of(URI.create("http://127.0.0.1:9/push/receipt/vendor_d"))));
        List<Outcome> outcomes = adapter.send(credentials("secret", 1), n, deliveries("tokA", "tokB"));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), outcomes);

        Recorder.Request auth = requests("/message/auth").get(0);
        JsonNode authBody = json(auth);
        assertEquals(10004, authBody.get("appId").asInt());
        assertEquals("key-abc", authBody.get("appKey").asText());
        long ts = authBody.get("timestamp").asLong();
        assertTrue(Math.abs(System.currentTimeMillis() - ts) < 60_000);
        assertEquals(VivoAdapter.md5Hex("10004key-abc" + ts + "secret"), authBody.get("sign").asText());
        assertTrue(auth.headers().get("content-type").startsWith("application/json"));

        Recorder.Request save = requests("/message/saveListPayload").get(0);
        String token = save.headers().get("authtoken");
        assertNotNull(token);
        JsonNode msg = json(save);
        assertEquals(10004, msg.get("appId").asInt());
        assertEquals("标题".repeat(10), msg.get("title").asText());
        assertEquals("x".repeat(100), msg.get("content").asText());
        assertEquals(4, msg.get("notifyType").asInt());
        assertEquals(4, msg.get("skipType").asInt());
        assertEquals("intent://chat/1#Intent;end", msg.get("skipContent").asText());
        assertEquals(-1, msg.get("networkType").asInt());
        assertEquals(1, msg.get("classification").asInt());
        assertEquals(0, msg.get("pushMode").asInt());
        int ttl = msg.get("timeToLive").asInt();
        assertTrue(ttl > 3500 && ttl <= 3600, "ttl " + ttl);
        assertEquals("v", msg.get("clientCustomMap").get("k").asText());
        assertEquals("1", msg.get("clientCustomMap").get("n").asText());
        assertTrue(msg.get("clientCustomMap").get("n").isTextual());
        assertEquals("http://127.0.0.1:9/push/receipt/vendor_d", msg.get("extra").get("callback").asText());
        assertEquals("77", msg.get("extra").get("callback.param").asText());
        assertFalse(msg.get("requestId").asText().isEmpty());
        assertFalse(msg.has("image") || msg.has("sound") || msg.has("channel_id"));

        Recorder.Request push = requests("/message/pushToList").get(0);
        assertEquals(token, push.headers().get("authtoken"));
        JsonNode pushBody = json(push);
        assertEquals("[\"tokA\",\"tokB\"]", pushBody.get("regIds").toString());
        assertFalse(pushBody.get("taskId").asText().isEmpty());
        assertEquals(0, pushBody.get("pushMode").asInt());
        assertEquals(10004, pushBody.get("appId").asInt());
        assertFalse(pushBody.get("requestId").asText().equals(msg.get("requestId").asText()));
        assertEquals(1, simulator.recorder().deliveriesTo("tokA"));
        assertEquals(1, simulator.recorder().deliveriesTo("tokB"));
    }

    @Test
    void defaultsOpenTheAppAndTestModeIsPassedOn() throws Exception {
        Notification n = notification(5, "{\"type\":\"text\",\"title\":\"\",\"body\":\"only body\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_d\":{\"push_mode\":1,\"classification\":0}}}");
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(credentials("s", 1), n, deliveries("a1", "a2")));
        JsonNode msg = json(requests("/message/saveListPayload").get(0));
        assertEquals(1, msg.get("skipType").asInt());
        assertFalse(msg.has("skipContent"));
        assertFalse(msg.has("extra"));
        assertFalse(msg.has("timeToLive"));
        assertFalse(msg.has("clientCustomMap"));
        assertEquals(1, msg.get("pushMode").asInt());
        assertEquals("only body", msg.get("title").asText()); // vivo needs a title: the body stands in
        assertEquals(1, json(requests("/message/pushToList").get(0)).get("pushMode").asInt());
    }

    @Test
    void fetchesTheTokenOnceAndSavesThePayloadOncePerTask() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        adapter.send(c, simple(1), deliveries("a", "b"));
        adapter.send(c, simple(1), deliveries("c", "d"));
        adapter.send(c, simple(2), deliveries("e", "f"));
        assertEquals(1, requests("/message/auth").size());
        assertEquals(2, requests("/message/saveListPayload").size());
        assertEquals(3, requests("/message/pushToList").size());
        // a re-uploaded certificate (new version) authenticates again
        adapter.send(credentials("s", 2), simple(1), deliveries("g", "h"));
        assertEquals(2, requests("/message/auth").size());
    }

    @Test
    void registeredAppWithWrongSecretIsRetriedAndNothingIsPushed() throws Exception {
        simulator.registerApp("10004", "key-abc", "right-secret");
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        List<Outcome> outcomes = adapter.send(credentials("wrong-secret", 1), simple(1), deliveries("a", "b"));
        assertEquals(2, outcomes.size());
        outcomes.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(outcomes.get(0).reason().contains("10206"), outcomes.get(0).reason());
        assertTrue(requests("/message/pushToList").isEmpty());
        assertEquals(0, simulator.recorder().deliveries());
        // the right secret passes the simulator's sign check
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                new VivoAdapter(settings(Optional.empty())).send(credentials("right-secret", 1), simple(1), deliveries("a", "b")));
    }

    @Test
    void refusedTokenIsRefreshedOnceThenTheSendSucceeds() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(c, simple(1), deliveries("a", "b")));
        simulator.faults().inject(Faults.Kind.AUTH, 1);
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(c, simple(2), deliveries("c", "d")));
        assertEquals(2, requests("/message/auth").size());
        // refused again by the refresh (the auth request takes the second fault): retry, no loop
        simulator.faults().inject(Faults.Kind.AUTH, 2);
        List<Outcome> outcomes = adapter.send(c, simple(3), deliveries("e", "f"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(outcomes.get(0).reason().contains("10206"), outcomes.get(0).reason());
        assertEquals(3, requests("/message/auth").size());
        assertEquals(0, simulator.recorder().deliveriesTo("e"));
    }

    @Test
    void thousandTokensGoInOneRequest() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        assertEquals(1000, adapter.maxTargetsPerRequest());
        String[] tokens = new String[1000];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = "tok" + i;
        }
        List<Outcome> outcomes = adapter.send(credentials("s", 1), simple(9), deliveries(tokens));
        assertEquals(1000, outcomes.stream().filter(o -> o.kind() == Outcome.Kind.ACCEPTED).count());
        List<Recorder.Request> pushes = requests("/message/pushToList");
        assertEquals(1, pushes.size());
        assertEquals(1000, json(pushes.get(0)).get("regIds").size());
        assertEquals(1000, simulator.recorder().distinctTokens());
    }

    @Test
    void invalidTokenIsRejectedWhileTheOthersAreAccepted() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        List<Outcome> outcomes = adapter.send(credentials("s", 1), simple(1), deliveries("ok1", "invalid-x", "ok2"));
        assertEquals(Outcome.Kind.ACCEPTED, outcomes.get(0).kind());
        assertEquals(Outcome.Kind.REJECTED, outcomes.get(1).kind());
        assertEquals(Outcome.Kind.ACCEPTED, outcomes.get(2).kind());
        assertEquals(0, simulator.recorder().deliveriesTo("invalid-x"));
    }

    @Test
    void singleTargetUsesSingleSend() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s", 1), simple(1), deliveries("one")));
        JsonNode body = json(requests("/message/send").get(0));
        assertEquals("one", body.get("regId").asText());
        assertEquals("Hi", body.get("title").asText());
        assertTrue(requests("/message/pushToList").isEmpty());
        List<Outcome> rejected = adapter.send(credentials("s", 1), simple(1), deliveries("invalid-one"));
        assertEquals(Outcome.Kind.REJECTED, rejected.get(0).kind());
    }

    @Test
    void transientFailureIsRetried() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        adapter.send(c, simple(1), deliveries("w1", "w2")); // token and payload cached
        simulator.faults().inject(Faults.Kind.TRANSIENT, 1);
        List<Outcome> outcomes = adapter.send(c, simple(1), deliveries("a", "b"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertEquals("vendor_d_http_500", outcomes.get(0).reason());
        assertEquals(0, simulator.recorder().deliveriesTo("a"));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(c, simple(1), deliveries("a", "b")));
    }

    @Test
    void unreachableProviderIsRetried() throws Exception {
        ChannelSettings down = new ChannelSettings(Channel.VENDOR_D, URI.create("http://127.0.0.1:1"),
                URI.create("http://127.0.0.1:1"), Optional.empty(), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(2), 4);
        List<Outcome> outcomes = new VivoAdapter(down).send(credentials("s", 1), simple(1), deliveries("a", "b"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
    }

    @Test
    void passThroughIsNotSentToVivo() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Notification cmd = notification(1, "{\"type\":\"cmd\",\"title\":\"\",\"body\":\"\",\"badge\":\"+1\","
                + "\"ext\":{\"a\":1},\"channels\":{\"vendor_d\":{\"push_mode\":0,\"classification\":0}}}");
        List<Outcome> outcomes = adapter.send(credentials("s", 1), cmd, deliveries("a", "b"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertEquals(0, simulator.recorder().requestCount());
    }

    @Test
    void truncationCountsCjkAsTwo() {
        assertEquals(40, VivoAdapter.vivoLength(VivoAdapter.truncate("中".repeat(30), 40)));
        assertEquals("a😀", VivoAdapter.truncate("a😀b", 2));
        assertEquals("ab中", VivoAdapter.truncate("ab中c", 4));
    }

    @Test
    void simulatorPostsDeliveryReceiptsToTheCallback() throws Exception {
        LinkedBlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/push/receipt/vendor_d", exchange -> {
            bodies.add(exchange.getRequestHeaders().getFirst("Content-Type") + "\n"
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            URI receipt = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/push/receipt/vendor_d");
            VivoAdapter adapter = new VivoAdapter(settings(Optional.of(receipt)));
            adapter.send(credentials("s", 1), simple(4242), deliveries("r1", "invalid-r", "r2"));
            String received = bodies.poll(5, TimeUnit.SECONDS);
            assertNotNull(received, "no receipt posted");
            String[] parts = received.split("\n", 2);
            assertTrue(parts[0].startsWith("application/json"));
            JsonNode body = MAPPER.readTree(parts[1]);
            assertEquals(1, body.size());
            JsonNode item = body.elements().next();
            assertEquals("4242", item.get("param").asText());
            assertEquals("r1,r2", item.get("targets").asText());
        } finally {
            server.stop(0);
        }
    }
}
