package io.imcore.pushworker.channel.meizu;

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
import io.imcore.simulators.meizu.MeizuSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MeizuAdapterTest {

    static final ObjectMapper MAPPER = new ObjectMapper();
    static final String NOTIFY = "/garcia/api/server/push/varnished/pushByPushId";
    static final String PASS_THROUGH = "/garcia/api/server/push/unvarnished/pushByPushId";
    static final MeizuSimulator simulator = new MeizuSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(simulator);

    static ChannelSettings settings(Optional<URI> receiptUrl) {
        return AdapterTestSupport.settings(Channel.VENDOR_E, running.base(), Optional.empty(), receiptUrl);
    }

    static Credentials credentials(String secret) {
        return AdapterTestSupport.credentials(Channel.VENDOR_E, "meizu-prod", "100999", "", secret, 1);
    }

    static Notification simple(long taskId) throws Exception {
        return notification(taskId, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"Hello\",\"badge\":\"+1\",\"channels\":{}}");
    }

    static List<Delivery> deliveries(String... tokens) {
        return targetedDeliveries("meizu-prod", tokens);
    }

    static List<Recorder.Request> requests(String path) {
        return recorded(simulator, path::equals);
    }

    /** The form fields of a recorded request, in their order. */
    static Map<String, String> form(Recorder.Request request) {
        return AdapterTestSupport.form(request.body());
    }

    @Test
    void mapsTheNotificationFieldByFieldAndSignsIt() throws Exception {
        long end = Instant.now().getEpochSecond() + 5 * 3600 - 10;
        Notification n = notification(88, "{\"type\":\"text\",\"title\":\"" + "t".repeat(40) + "\",\"body\":\""
                + "魅".repeat(120) + "\",\"big_text\":\"long text\",\"badge\":\"+1\",\"ext\":{\"k\":\"v\",\"n\":1},"
                + "\"show_end_time\":" + end + ",\"attachment_url\":\"https://img.example/a.png\","
                + "\"channels\":{\"vendor_e\":{\"sound\":\"s\",\"channel_id\":\"c\",\"click_action\":\"intent\","
                + "\"intent\":\"com.example.chat.ChatActivity\"}}}");
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.of(URI.create("http://127.0.0.1:9/push/receipt/vendor_e"))));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("secret"), n, deliveries("pidA", "pidB")));

        Recorder.Request request = requests(NOTIFY).get(0);
        assertTrue(request.headers().get("content-type").startsWith("application/x-www-form-urlencoded"));
        Map<String, String> form = form(request);
        assertEquals("100999", form.get("appId"));
        assertEquals("pidA,pidB", form.get("pushIds"));
        String expectedSign = MeizuAdapter.sign(Map.of("appId", "100999", "pushIds", "pidA,pidB",
                "messageJson", form.get("messageJson")), "secret");
        assertEquals(expectedSign, form.get("sign"));
        // the documented algorithm, spelled out: sorted k=v + secret
        assertEquals(expectedSign, md5("appId=100999messageJson=" + form.get("messageJson") + "pushIds=pidA,pidBsecret"));

        JsonNode m = MAPPER.readTree(form.get("messageJson"));
        assertEquals(0, m.at("/noticeBarInfo/noticeBarType").asInt());
        assertEquals("t".repeat(32), m.at("/noticeBarInfo/title").asText());
        assertEquals("魅".repeat(100), m.at("/noticeBarInfo/content").asText());
        assertEquals(1, m.at("/noticeExpandInfo/noticeExpandType").asInt());
        assertEquals("long text", m.at("/noticeExpandInfo/noticeExpandContent").asText());
        assertEquals(1, m.at("/clickTypeInfo/clickType").asInt());
        assertEquals("com.example.chat.ChatActivity", m.at("/clickTypeInfo/activity").asText());
        assertEquals("v", m.at("/clickTypeInfo/parameters/k").asText());
        assertEquals(1, m.at("/clickTypeInfo/parameters/n").asInt());
        assertEquals(1, m.at("/pushTimeInfo/offLine").asInt());
        assertEquals(5, m.at("/pushTimeInfo/validTime").asInt());
        assertEquals(1, m.at("/advanceInfo/notificationType/sound").asInt());
        assertEquals("http://127.0.0.1:9/push/receipt/vendor_e", m.at("/extra/callback").asText());
        assertEquals("88", m.get("extra").get("callback.param").asText());
        assertEquals(1, m.get("extra").get("callback.type").asInt());
        assertEquals(1, simulator.recorder().deliveriesTo("pidA"));
    }

    @Test
    void defaultsAndUriIntent() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.empty()));
        adapter.send(credentials("s"), simple(1), deliveries("a"));
        JsonNode m = MAPPER.readTree(form(requests(NOTIFY).get(0)).get("messageJson"));
        assertEquals(0, m.at("/clickTypeInfo/clickType").asInt());
        assertEquals(0, m.at("/noticeExpandInfo/noticeExpandType").asInt());
        assertEquals(24, m.at("/pushTimeInfo/validTime").asInt());
        assertFalse(m.has("extra"));
        assertFalse(m.at("/clickTypeInfo").has("parameters"));

        Notification uri = notification(2, "{\"type\":\"text\",\"title\":\"T\",\"body\":\"B\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_e\":{\"click_action\":\"intent\",\"intent\":\"chat://room/1\"}}}");
        adapter.send(credentials("s"), uri, deliveries("a"));
        JsonNode m2 = MAPPER.readTree(form(requests(NOTIFY).get(1)).get("messageJson"));
        assertEquals(2, m2.at("/clickTypeInfo/clickType").asInt());
        assertEquals("chat://room/1", m2.at("/clickTypeInfo/url").asText());
    }

    @Test
    void passThroughGoesToTheUnvarnishedApiWithExtAsContent() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.of(URI.create("http://127.0.0.1:9/r"))));
        Notification cmd = notification(3, "{\"type\":\"cmd\",\"title\":\"sync\",\"body\":\"\",\"badge\":\"+1\","
                + "\"ext\":{\"op\":\"sync\",\"seq\":7},\"channels\":{}}");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(credentials("s"), cmd, deliveries("a", "b")));
        assertTrue(requests(NOTIFY).isEmpty());
        JsonNode m = MAPPER.readTree(form(requests(PASS_THROUGH).get(0)).get("messageJson"));
        assertEquals("sync", m.get("title").asText());
        assertEquals("{\"op\":\"sync\",\"seq\":7}", m.get("content").asText());
        assertEquals(1, m.at("/pushTimeInfo/offLine").asInt());
        assertFalse(m.has("extra")); // Meizu has receipts for notifications only
    }

    @Test
    void registeredAppChecksTheSign() throws Exception {
        simulator.registerApp("100999", "right-secret");
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.empty()));
        List<Outcome> wrong = adapter.send(credentials("wrong-secret"), simple(1), deliveries("a", "b"));
        wrong.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(wrong.get(0).reason().startsWith("vendor_e_1006"), wrong.get(0).reason());
        assertEquals(0, simulator.recorder().deliveries());
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("right-secret"), simple(1), deliveries("a", "b")));
    }

    @Test
    void thousandTokensGoInOneRequest() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.empty()));
        assertEquals(1000, adapter.maxTargetsPerRequest());
        String[] tokens = new String[1000];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = "pid" + i;
        }
        List<Outcome> outcomes = adapter.send(credentials("s"), simple(1), deliveries(tokens));
        assertEquals(1000, outcomes.stream().filter(o -> o.kind() == Outcome.Kind.ACCEPTED).count());
        assertEquals(1, requests(NOTIFY).size());
        assertEquals(1000, form(requests(NOTIFY).get(0)).get("pushIds").split(",").length);
        assertEquals(1000, simulator.recorder().distinctTokens());
    }

    @Test
    void perTokenResults() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.empty()));
        List<Outcome> outcomes = adapter.send(credentials("s"), simple(1), deliveries("ok1", "invalid-x", "flaky-y", "ok2"));
        assertEquals(Outcome.Kind.ACCEPTED, outcomes.get(0).kind());
        assertEquals(Outcome.Kind.REJECTED, outcomes.get(1).kind());
        assertEquals("vendor_e_110003", outcomes.get(1).reason());
        assertEquals(Outcome.Kind.RETRY, outcomes.get(2).kind());
        assertEquals(Outcome.Kind.ACCEPTED, outcomes.get(3).kind());
        // the flaky token is accepted the second time
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), simple(1), deliveries("flaky-y")));
    }

    @Test
    void requestFaultsAreRetried() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.empty()));
        simulator.faults().inject(Faults.Kind.TRANSIENT, 1);
        List<Outcome> busy = adapter.send(credentials("s"), simple(1), deliveries("a", "b"));
        busy.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(busy.get(0).reason().startsWith("vendor_e_1003"));
        simulator.faults().inject(Faults.Kind.AUTH, 1);
        List<Outcome> auth = adapter.send(credentials("s"), simple(1), deliveries("a", "b"));
        auth.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(auth.get(0).reason().startsWith("vendor_e_1006"));
        assertEquals(0, simulator.recorder().deliveries());
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(credentials("s"), simple(1), deliveries("a", "b")));
    }

    @Test
    void codeTables() {
        assertEquals(Outcome.Kind.REJECTED, MeizuAdapter.targetFailure("110002").kind());
        assertEquals(Outcome.Kind.RETRY, MeizuAdapter.targetFailure("519").kind());
        assertEquals(Duration.ofMinutes(1), MeizuAdapter.targetFailure("520").retryAfter());
        assertEquals(Duration.ofSeconds(1), MeizuAdapter.requestFailure("110010", "").retryAfter());
        assertEquals(Outcome.Kind.RETRY, MeizuAdapter.requestFailure("110000", "").kind());
    }

    @Test
    void simulatorPostsDeliveryReceiptsToTheCallback() throws Exception {
        LinkedBlockingQueue<String> bodies = new LinkedBlockingQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/push/receipt/vendor_e", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        try {
            URI receipt = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/push/receipt/vendor_e");
            new MeizuAdapter(settings(Optional.of(receipt))).send(credentials("s"), simple(4343), deliveries("r1", "invalid-r", "r2"));
            String received = bodies.poll(5, TimeUnit.SECONDS);
            assertNotNull(received, "no receipt posted");
            Map<String, String> fields = new LinkedHashMap<>();
            for (String pair : received.split("&")) {
                int eq = pair.indexOf('=');
                fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            assertNotNull(fields.get("access_token"));
            JsonNode cb = MAPPER.readTree(fields.get("cb"));
            assertEquals(1, cb.size());
            String key = cb.fieldNames().next();
            assertTrue(key.endsWith("-1"), key);
            JsonNode item = cb.get(key);
            assertEquals("4343", item.get("param").asText());
            assertEquals(1, item.get("type").asInt());
            assertEquals("[\"r1\",\"r2\"]", item.get("targets").toString());
        } finally {
            server.stop(0);
        }
    }

    static String md5(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
