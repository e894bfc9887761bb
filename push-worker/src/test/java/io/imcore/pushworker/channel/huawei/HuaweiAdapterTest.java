package io.imcore.pushworker.channel.huawei;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.deliveries;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.settings;
import static io.imcore.pushworker.channel.AdapterTestSupport.textNotification;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.imcore.simulators.huawei.HuaweiSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HuaweiAdapterTest {

    static final HuaweiSimulator sim = new HuaweiSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);
    static HuaweiAdapter adapter;
    static int version = 1;

    @BeforeAll
    static void createAdapter() {
        adapter = new HuaweiAdapter(settings(Channel.VENDOR_A, running.base(), Optional.empty(), Optional.empty()));
    }

    @BeforeEach
    void noReceipts() {
        sim.setReceiptUrl(null);
    }

    /** Fresh credentials each time (new cache key), so each test fetches its own token. */
    static Credentials credentials(String secret) {
        return AdapterTestSupport.credentials(Channel.VENDOR_A, "hw", "10086", "", secret, version++);
    }

    static Notification text(String title, String body) {
        return textNotification(77L, title, body);
    }

    static List<Recorder.Request> sends() {
        return recorded(sim, path -> path.contains("messages:send"));
    }

    static long tokenRequests() {
        return recorded(sim, path -> path.startsWith("/oauth2/v3/token")).size();
    }

    @Test
    void mapsEveryField() throws Exception {
        ObjectNode m = JSON.createObjectNode().put("type", "image").put("title", "T".repeat(150))
                .put("body", "hello").put("big_text", "long text").put("badge", "+1")
                .put("attachment_url", "https://img.example.com/a.png").put("show_end_time",
                        System.currentTimeMillis() / 1000 + 600);
        m.putObject("ext").put("k", "v");
        m.putObject("channels").putObject("vendor_a").put("sound", "ding").put("channel_id", "im")
                .put("click_action", "intent").put("intent", "intent://chat#Intent;scheme=app;end")
                .put("badge_class", "com.example.Main");
        List<Delivery> ds = List.of(new Delivery(null, "tokA", 5), new Delivery(null, "tokB", 5));
        List<Outcome> out = adapter.send(credentials("s"), new Notification(77L, "app1", m), ds);
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), out);
        assertEquals(1, sends().size());
        Recorder.Request req = sends().get(0);
        assertEquals("/v1/10086/messages:send", req.path());
        assertTrue(req.headers().get("authorization").startsWith("Bearer CF"));
        JsonNode body = JSON.readTree(req.body());
        assertFalse(body.get("validate_only").asBoolean());
        JsonNode msg = body.get("message");
        assertEquals("[\"tokA\",\"tokB\"]", msg.get("token").toString());
        assertEquals("{\"k\":\"v\"}", msg.get("data").asText());
        JsonNode android = msg.get("android");
        assertEquals("77", android.get("bi_tag").asText());
        assertTrue(android.get("ttl").asText().matches("\\d+s"));
        JsonNode n = android.get("notification");
        assertEquals(HuaweiAdapter.TITLE_MAX, n.get("title").asText().length());
        assertEquals("hello", n.get("body").asText());
        assertEquals(1, n.get("style").asInt());
        assertEquals("long text", n.get("big_body").asText());
        assertEquals("https://img.example.com/a.png", n.get("image").asText());
        assertEquals("im", n.get("channel_id").asText());
        assertEquals("ding", n.get("sound").asText());
        assertEquals(1, n.get("click_action").get("type").asInt());
        assertEquals("intent://chat#Intent;scheme=app;end", n.get("click_action").get("intent").asText());
        assertEquals("com.example.Main", n.get("badge").get("class").asText());
        assertEquals(5, n.get("badge").get("set_num").asInt());
    }

    @Test
    void defaultsOpenTheAppAndCmdIsDataOnly() throws Exception {
        adapter.send(credentials("s"), text("t", "b"), deliveries("tok1"));
        JsonNode n = JSON.readTree(sends().get(0).body()).get("message").get("android").get("notification");
        assertEquals(3, n.get("click_action").get("type").asInt());
        assertFalse(n.has("badge"));
        ObjectNode cmd = JSON.createObjectNode().put("type", "cmd").put("title", "").put("body", "");
        cmd.putObject("ext").put("op", "sync");
        adapter.send(credentials("s"), new Notification(78L, "app1", cmd), deliveries("tok1"));
        JsonNode msg = JSON.readTree(sends().get(1).body()).get("message");
        assertFalse(msg.get("android").has("notification"));
        assertEquals("{\"op\":\"sync\"}", msg.get("data").asText());
    }

    @Test
    void badgeNumbersSplitTheBatch() throws Exception {
        ObjectNode m = (ObjectNode) text("t", "b").message();
        m.putObject("channels").putObject("vendor_a").put("badge_class", "com.example.Main");
        List<Delivery> ds = List.of(new Delivery(null, "a", 1), new Delivery(null, "b", 2),
                new Delivery(null, "c", 1));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("s"), new Notification(1L, "app1", m), ds));
        assertEquals(2, sends().size());
        for (Recorder.Request r : sends()) {
            JsonNode msg = JSON.readTree(r.body()).get("message");
            int num = msg.get("android").get("notification").get("badge").get("set_num").asInt();
            assertEquals(num == 1 ? "[\"a\",\"c\"]" : "[\"b\"]", msg.get("token").toString());
        }
    }

    @Test
    void tokenFetchedOnceAndReused() {
        Credentials c = credentials("s");
        adapter.send(c, text("t", "b"), deliveries("x1"));
        adapter.send(c, text("t", "b"), deliveries("x2"));
        assertEquals(1, tokenRequests());
        Recorder.Request tokenRequest = sim.recorder().requests().get(0);
        assertTrue(tokenRequest.body().contains("grant_type=client_credentials"));
        assertTrue(tokenRequest.body().contains("client_id=10086"));
        assertTrue(tokenRequest.body().contains("client_secret=s"));
        assertEquals(2, sim.recorder().deliveries());
    }

    @Test
    void wrongSecretOfARegisteredAppIsRetry() {
        sim.registerApp("10086", "", "right", "");
        List<Outcome> out = adapter.send(credentials("wrong"), text("t", "b"), deliveries("x1"));
        assertEquals(Outcome.Kind.RETRY, out.get(0).kind());
        assertEquals(0, sends().size());
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("right"), text("t", "b"), deliveries("x1")).get(0));
    }

    @Test
    void authFaultRefreshesTheTokenOnce() {
        Credentials c = credentials("s");
        adapter.send(c, text("t", "b"), deliveries("x1"));
        sim.faults().inject(Faults.Kind.AUTH, 1);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(c, text("t", "b"), deliveries("x2")));
        assertEquals(2, tokenRequests());
        sim.faults().inject(Faults.Kind.AUTH, 2);
        assertEquals(Outcome.Kind.RETRY, adapter.send(c, text("t", "b"), deliveries("x3")).get(0).kind());
    }

    @Test
    void thousandTokensInOneRequest() throws Exception {
        assertEquals(1000, adapter.maxTargetsPerRequest());
        String[] tokens = new String[1000];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = String.format("IQAAAAC%0120x", i); // real tokens are about this long
        }
        List<Outcome> out = adapter.send(credentials("s"), text("t", "b"), deliveries(tokens));
        assertTrue(out.stream().allMatch(o -> o == Outcome.ACCEPTED));
        assertEquals(1, sends().size());
        assertEquals(1000, JSON.readTree(sends().get(0).body()).get("message").get("token").size());
        assertEquals(1000, sim.recorder().distinctTokens());
    }

    @Test
    void invalidTokensRejectedOthersAccepted() {
        List<Outcome> out = adapter.send(credentials("s"), text("t", "b"),
                deliveries("good1", Faults.INVALID_PREFIX + "1", "good2"));
        assertEquals(Outcome.ACCEPTED, out.get(0));
        assertEquals(Outcome.Kind.REJECTED, out.get(1).kind());
        assertEquals(Outcome.ACCEPTED, out.get(2));
        List<Outcome> all = adapter.send(credentials("s"), text("t", "b"), deliveries(Faults.INVALID_PREFIX + "2"));
        assertEquals(Outcome.Kind.REJECTED, all.get(0).kind());
        assertEquals(1, sim.recorder().deliveriesTo("good1"));
        assertEquals(0, sim.recorder().deliveriesTo(Faults.INVALID_PREFIX + "1"));
    }

    @Test
    void transientFaultIsRetry() {
        Credentials c = credentials("s");
        sim.faults().inject(Faults.Kind.TRANSIENT, 1);
        List<Outcome> out = adapter.send(c, text("t", "b"), deliveries("a", "b"));
        assertTrue(out.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY), out.toString());
        assertEquals(0, sim.recorder().deliveries());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(c, text("t", "b"), deliveries("a")));
    }

    @Test
    void connectionRefusedIsRetry() {
        URI dead = URI.create("http://127.0.0.1:1");
        HuaweiAdapter down = new HuaweiAdapter(new ChannelSettings(Channel.VENDOR_A, dead, dead, Optional.empty(),
                Optional.empty(), Optional.empty(), Duration.ofSeconds(2), 4));
        assertEquals(Outcome.Kind.RETRY, down.send(credentials("s"), text("t", "b"), deliveries("a")).get(0).kind());
    }

    @Test
    void receiptCallbackCarriesTheTaskId() throws Exception {
        BlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
        try {
            sim.setReceiptUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/push/receipt/vendor_a");
            adapter.send(credentials("s"), text("t", "b"), deliveries("r1", Faults.INVALID_PREFIX + "x", "r2"));
            String body = bodies.poll(10, TimeUnit.SECONDS);
            assertNotNull(body);
            JsonNode statuses = JSON.readTree(body).get("statuses");
            assertEquals(2, statuses.size());
            assertEquals("77", statuses.get(0).get("biTag").asText());
            assertEquals("r1", statuses.get(0).get("token").asText());
            assertEquals(0, statuses.get(0).get("status").asInt());
            assertEquals("r2", statuses.get(1).get("token").asText());
        } finally {
            server.stop(0);
        }
    }
}
