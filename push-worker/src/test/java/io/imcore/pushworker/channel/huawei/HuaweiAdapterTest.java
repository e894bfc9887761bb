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
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.MessageShapes;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.huawei.HuaweiSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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
        adapter = new HuaweiAdapter(settings(Channel.HUAWEI, running.base(), Optional.empty(), Optional.empty()));
    }

    @BeforeEach
    void noReceipts() {
        sim.setReceiptUrl(null);
    }

    /** Fresh credentials each time (new cache key), so each test fetches its own token. */
    static Credentials credentials(String secret) {
        return AdapterTestSupport.credentials(Channel.HUAWEI, "hw", "10086", "", secret, version++);
    }

    static Notification text(String title, String body) {
        return textNotification(77L, title, body);
    }

    static List<Recorder.Request> sends() {
        return recorded(sim, path -> path.contains("messages:send"));
    }

    /** android.notification of the i-th send. */
    static JsonNode notificationSent(int i) throws Exception {
        return JSON.readTree(sends().get(i).body()).at("/message/android/notification");
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
        assertEquals("IM", android.get("category").asText());
        assertTrue(android.get("ttl").asText().matches("\\d+s"));
        JsonNode n = android.get("notification");
        assertEquals(HuaweiMessage.TITLE_MAX, n.get("title").asText().length());
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
    void notifyIdAndGroupMapToTheAndroidNotification() throws Exception {
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "Alice").put("body", "hi")
                .put("badge", "+1").put("collapse_key", "c-3f9a1b2c").put("notify_id", 2_000_000_001)
                .put("group", "c-3f9a1b2c");
        m.putObject("channels");
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials("s"), new Notification(77L, "app1", m), deliveries("tok1")));
        JsonNode n = notificationSent(0);
        assertEquals(2_000_000_001, n.get("notify_id").asInt());
        assertTrue(n.get("notify_id").isInt(), "an Integer: " + n);
        assertEquals("c-3f9a1b2c", n.get("group").asText());
        assertFalse(n.has("tag"), "collapse_key is not sent: notify_id does the replacing");
        assertFalse(JSON.readTree(sends().get(0).body()).at("/message/android").has("collapse_key"),
                "android.collapse_key is Huawei's -1..100 offline cache key, not ours");

        adapter.send(credentials("s"), text("t", "b"), deliveries("tok1"));
        JsonNode plain = notificationSent(1);
        assertFalse(plain.has("notify_id") || plain.has("group"), "nothing without the fields: " + plain);
    }

    @Test
    void simulatorRefusesANotifyIdThatIsNotAnInteger() throws Exception {
        String template = "{\"validate_only\":false,\"message\":{\"token\":[\"tok1\"],\"android\":{\"notification\":"
                + "{\"title\":\"t\",\"body\":\"b\",\"click_action\":{\"type\":3},%s}}}}";
        HttpResponse<String> ok = RawHuaweiClient.send(running.base(),
                template.formatted("\"notify_id\":486,\"group\":\"Group1\""));
        assertEquals("80000000", JSON.readTree(ok.body()).path("code").asText(), ok.body());
        for (String wrong : List.of("\"notify_id\":\"486\"", "\"notify_id\":4294967296", "\"notify_id\":1.5",
                "\"group\":7")) {
            HttpResponse<String> refused = RawHuaweiClient.send(running.base(), template.formatted(wrong));
            assertEquals("80100003", JSON.readTree(refused.body()).path("code").asText(), wrong + ": " + refused.body());
        }
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
        assertFalse(msg.get("android").has("category"), "a data message takes only an explicit category");
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
    void titleOnlyAndBodyOnlyAreFilledFromEachOther() throws Exception {
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), text("Hello", ""), deliveries("t1")));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), text("", "Hi there"), deliveries("t2")));
        JsonNode titleOnly = notificationSent(0);
        assertEquals("Hello", titleOnly.get("title").asText());
        assertEquals("Hello", titleOnly.get("body").asText());
        JsonNode bodyOnly = notificationSent(1);
        assertEquals("Hi there", bodyOnly.get("title").asText());
        assertEquals("Hi there", bodyOnly.get("body").asText());
    }

    @Test
    void noTitleAndNoBodyFailsWithoutARequest() {
        List<Outcome> out = adapter.send(credentials("s"), text("", ""), deliveries("t1", "t2"));
        assertTrue(out.stream().allMatch(o -> o.kind() == Outcome.Kind.FAILED
                && o.reason().equals(HuaweiMessage.NO_TEXT)), out.toString());
        assertEquals(0, sends().size());
    }

    @Test
    void badgeNumberNeverLeaves0To99() throws Exception {
        ObjectNode m = (ObjectNode) text("t", "b").message();
        m.putObject("channels").putObject("vendor_a").put("badge_class", "com.example.Main");
        List<Delivery> ds = List.of(new Delivery(null, "a", 150), new Delivery(null, "b", 99),
                new Delivery(null, "c", 0));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("s"), new Notification(1L, "app1", m), ds));
        Map<Integer, String> tokensByNumber = new TreeMap<>();
        for (Recorder.Request r : sends()) {
            JsonNode msg = JSON.readTree(r.body()).get("message");
            tokensByNumber.put(msg.at("/android/notification/badge/set_num").asInt(), msg.get("token").toString());
        }
        assertEquals(Map.of(0, "[\"c\"]", 99, "[\"a\",\"b\"]"), tokensByNumber, "150 is sent as 99, with 99");
    }

    @Test
    void simulatorRefusesABadgeOutOfRange() {
        // the rule our clamp exists for: Huawei's own range check (server demo BadgeNotification.check)
        HttpResponse<String> answer = RawHuaweiClient.send(running.base(),
                "{\"message\":{\"android\":{\"notification\":{\"title\":\"t\",\"body\":\"b\","
                + "\"click_action\":{\"type\":3},\"badge\":{\"class\":\"c\",\"add_num\":110}}},"
                + "\"token\":[\"x\"]}}");
        assertEquals(400, answer.statusCode());
        assertTrue(answer.body().contains("80100003") && answer.body().contains("addNum"), answer.body());
    }

    @Test
    void httpImageGoesOutAsATextNotification() throws Exception {
        ObjectNode m = (ObjectNode) text("Photo", "sent you a photo").message();
        m.put("type", "image").put("attachment_url", "http://img.example.com/a.png");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), new Notification(1L, "app1", m),
                deliveries("t1")));
        JsonNode n = notificationSent(0);
        assertFalse(n.has("image"));
        assertEquals("sent you a photo", n.get("body").asText());
        m.put("attachment_url", "HTTPS://img.example.com/a.png");
        adapter.send(credentials("s"), new Notification(2L, "app1", m), deliveries("t1"));
        assertEquals("https://img.example.com/a.png", notificationSent(1).get("image").asText());
    }

    @Test
    void categoryIsThePushsElseTheAppDefaultElseIm() throws Exception {
        ObjectNode defaults = JSON.createObjectNode().put("category", "WORK");
        Credentials withDefault = new Credentials("app1", Channel.HUAWEI, 1, "hw", "10086", "", "s", "",
                version++, defaults);
        ObjectNode own = (ObjectNode) text("t", "b").message();
        own.putObject("channels").putObject("vendor_a").put("category", "SUBSCRIPTION");
        adapter.send(withDefault, new Notification(1L, "app1", own), deliveries("t1"));
        adapter.send(withDefault, text("t", "b"), deliveries("t1"));
        adapter.send(credentials("s"), text("t", "b"), deliveries("t1"));
        List<String> categories = new ArrayList<>();
        for (Recorder.Request r : sends()) {
            categories.add(JSON.readTree(r.body()).at("/message/android/category").asText());
        }
        assertEquals(List.of("SUBSCRIPTION", "WORK", "IM"), categories);
    }

    @Test
    void textsAreShortenedToFitHuaweis4096Bytes() throws Exception {
        ObjectNode m = (ObjectNode) text("标题".repeat(50), "正文".repeat(500)).message();
        m.put("big_text", "详细".repeat(500));
        ObjectNode ext = m.putObject("ext");
        for (int i = 0; i < 40; i++) {
            ext.put("key" + i, "v".repeat(40));
        }
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), new Notification(1L, "app1", m),
                deliveries("t1")));
        ObjectNode sent = (ObjectNode) JSON.readTree(sends().get(0).body());
        ((ObjectNode) sent.get("message")).remove("token");
        assertTrue(HuaweiMessage.messageBytes(sent) <= HuaweiMessage.MAX_MESSAGE_BYTES);
        JsonNode n = sent.at("/message/android/notification");
        assertFalse(n.get("body").asText().isEmpty());
        assertEquals(ext.toString(), sent.at("/message/data").asText(), "ext is never cut");
    }

    @Test
    void anExtThatCannotFitFailsWithoutARequest() {
        ObjectNode m = (ObjectNode) text("t", "b").message();
        ObjectNode ext = m.putObject("ext");
        for (int i = 0; i < 110; i++) {
            ext.put("key" + i, "v".repeat(30));
        }
        Outcome out = adapter.send(credentials("s"), new Notification(1L, "app1", m), deliveries("t1")).get(0);
        assertEquals(Outcome.Kind.FAILED, out.kind());
        assertTrue(out.reason().startsWith(HuaweiMessage.TOO_LARGE), out.reason());
        assertEquals(0, sends().size());
    }

    @Test
    void ttlNeverExceedsFifteenDays() throws Exception {
        ObjectNode m = (ObjectNode) text("t", "b").message();
        m.put("show_end_time", System.currentTimeMillis() / 1000 + 90L * 24 * 3600);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), new Notification(1L, "app1", m),
                deliveries("t1")));
        assertEquals(HuaweiMessage.TTL_MAX_SECONDS + "s",
                JSON.readTree(sends().get(0).body()).at("/message/android/ttl").asText());
    }

    @Test
    void aForbiddenAppFailsAtOnce() {
        sim.forbidApp("10086");
        Outcome out = adapter.send(credentials("s"), text("t", "b"), deliveries("t1", "t2")).get(1);
        assertEquals(Outcome.Kind.FAILED, out.kind());
        assertTrue(out.reason().startsWith("80300002"), out.reason());
        assertEquals(1, sends().size());
    }

    @Test
    void permanentAndTransientAnswers() {
        for (String code : HuaweiAdapter.PERMANENT_CODES) {
            assertFalse(HuaweiAdapter.isTransient(code, 400), code);
            assertFalse(HuaweiAdapter.isTransient(code, 500), code);
        }
        assertTrue(HuaweiAdapter.isTransient("81000001", 500));
        assertTrue(HuaweiAdapter.isTransient("80600003", 500));
        assertTrue(HuaweiAdapter.isTransient("", 503));
        assertTrue(HuaweiAdapter.isTransient("", 429));
        assertFalse(HuaweiAdapter.isTransient("", 404), "a wrong URL is not fixed by retrying");
        assertFalse(HuaweiAdapter.isTransient("80999999", 400), "an unknown refusal of the request");
    }

    @Test
    void everyShapeIsAcceptedOrFailsAsDocumented() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter, credentials("s"), "shape-token"),
                Map.of("both_empty", HuaweiMessage.NO_TEXT, "large_ext", HuaweiMessage.TOO_LARGE));
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
        HuaweiAdapter down = new HuaweiAdapter(new ChannelSettings(Channel.HUAWEI, dead, dead, Optional.empty(),
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
