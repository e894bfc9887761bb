package io.imcore.pushworker.channel.oppo;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.deliveries;
import static io.imcore.pushworker.channel.AdapterTestSupport.form;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.settings;
import static io.imcore.pushworker.channel.AdapterTestSupport.textNotification;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.AdapterTestSupport;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.MessageShapes;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.oppo.OppoSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OppoAdapterTest {

    static final OppoSimulator sim = new OppoSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);
    static OppoAdapter adapter;
    static int version = 1;

    @BeforeAll
    static void createAdapter() {
        adapter = adapter(Optional.empty());
    }

    static OppoAdapter adapter(Optional<URI> receiptUrl) {
        return new OppoAdapter(settings(Channel.OPPO, running.base(), Optional.of(running.base()), receiptUrl));
    }

    static Credentials credentials(String masterSecret) {
        return AdapterTestSupport.credentials(Channel.OPPO, "op", "", "appkey1", masterSecret, version++);
    }

    /** Credentials whose certificate carries these message defaults. */
    static Credentials credentialsWithDefaults(String messageDefaultsJson) throws Exception {
        return new Credentials("app1", Channel.OPPO, 1, "op", "", "appkey1", "m", "", version++,
                (ObjectNode) JSON.readTree(messageDefaultsJson));
    }

    static Notification text(String title, String body) {
        return textNotification(99L, title, body);
    }

    /** A text message with these OPPO settings. */
    static Notification withSettings(String oppoJson) throws Exception {
        Notification n = text("t", "b");
        n.message().set("channels", JSON.readTree("{\"vendor_c\":" + oppoJson + "}"));
        return n;
    }

    static List<Recorder.Request> sends() {
        return recorded(sim, path -> path.endsWith("/unicast_batch"));
    }

    static List<Recorder.Request> auths() {
        return recorded(sim, path -> path.equals("/server/v1/auth"));
    }

    /** The notification of the first message of the last recorded send. */
    static JsonNode lastNotification() throws Exception {
        List<Recorder.Request> sends = sends();
        return JSON.readTree(form(sends.get(sends.size() - 1).body()).get("messages")).get(0).get("notification");
    }

    @Test
    void notifyIdMapsToTheNotificationsNotifyId() throws Exception {
        Notification chat = text("Alice", "hi");
        chat.message().put("collapse_key", "c-3f9a1b2c").put("notify_id", 1_234_567).put("group", "c-3f9a1b2c");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("ms"), chat, deliveries("r1", "r2")));
        JsonNode messages = JSON.readTree(form(sends().get(sends().size() - 1).body()).get("messages"));
        for (JsonNode message : messages) {
            assertEquals(1_234_567, message.at("/notification/notify_id").asInt(), message.toString());
            assertTrue(message.at("/notification/notify_id").isInt(), message.toString());
        }
        assertFalse(messages.toString().contains("c-3f9a1b2c"), "OPPO has no collapse or group key: " + messages);

        adapter.send(credentials("ms"), text("t", "b"), deliveries("r1"));
        assertFalse(lastNotification().has("notify_id"), "nothing without notify_id: " + lastNotification());
    }

    @Test
    void mapsEveryField() throws Exception {
        long end = System.currentTimeMillis() / 1000 + 600;
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "T".repeat(70))
                .put("body", "short").put("big_text", "B".repeat(300)).put("badge", "+1")
                .put("show_end_time", end);
        m.putObject("ext").put("k", "v");
        m.putObject("channels").putObject("vendor_c").put("channel_id", "im")
                .put("click_action", "intent").put("intent", "app://chat/1");
        List<Outcome> out = adapter(Optional.of(URI.create("http://cb.example/push/receipt/vendor_c")))
                .send(credentials("ms"), new Notification(99L, "app1", m), deliveries("r1", "r2"));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), out);
        assertEquals(1, sends().size());
        Recorder.Request req = sends().get(0);
        Map<String, String> f = form(req.body());
        assertEquals(2, f.size(), "auth_token and messages only: " + f.keySet());
        assertNotNull(f.get("auth_token"));
        JsonNode messages = JSON.readTree(f.get("messages"));
        assertEquals(2, messages.size());
        assertEquals(2, messages.get(0).get("target_type").asInt());
        assertEquals("r1", messages.get(0).get("target_value").asText());
        assertEquals("r2", messages.get(1).get("target_value").asText());
        JsonNode n = messages.get(0).get("notification");
        assertEquals("T".repeat(OppoAdapter.TITLE_MAX), n.get("title").asText());
        assertEquals(2, n.get("style").asInt());
        assertEquals("B".repeat(OppoAdapter.LONG_CONTENT_MAX), n.get("content").asText());
        assertEquals(5, n.get("click_action_type").asInt());
        assertEquals("app://chat/1", n.get("click_action_url").asText());
        assertEquals("{\"k\":\"v\"}", n.get("action_parameters").asText());
        assertEquals("im", n.get("channel_id").asText());
        assertTrue(n.get("off_line").asBoolean());
        // ten minutes to show_end_time, but OPPO keeps an offline message at least an hour
        assertEquals(OppoAdapter.OFFLINE_TTL_MIN, n.get("off_line_ttl").asLong());
        assertFalse(n.has("show_time_type"), "timed display is not offered for single pushes");
        assertEquals("http://cb.example/push/receipt/vendor_c/app1?key=rk", n.get("call_back_url").asText());
        assertEquals("99", n.get("call_back_parameter").asText());
        assertEquals("IM", n.get("category").asText());
        assertEquals(2, n.get("notify_level").asInt());
    }

    @Test
    void authSignatureAndTokenReuse() throws Exception {
        sim.registerApp("", "appkey1", "master", "");
        Credentials c = credentials("master");
        assertEquals(Outcome.ACCEPTED, adapter.send(c, text("t", "b"), deliveries("r1")).get(0));
        assertEquals(Outcome.ACCEPTED, adapter.send(c, text("t", "b"), deliveries("r2")).get(0));
        assertEquals(1, auths().size());
        Map<String, String> f = form(auths().get(0).body());
        assertEquals("appkey1", f.get("app_key"));
        assertEquals(OppoAdapter.sign("appkey1", f.get("timestamp"), "master"), f.get("sign"));
        JsonNode n = lastNotification();
        assertEquals(0, n.get("click_action_type").asInt());
        assertEquals(1, n.get("style").asInt());
        assertEquals(OppoAdapter.OFFLINE_TTL_DEFAULT, n.get("off_line_ttl").asLong());
        assertFalse(n.has("call_back_url"));
    }

    @Test
    void wrongMasterSecretFailsAtOnce() {
        sim.registerApp("", "appkey1", "master", "");
        Outcome o = adapter.send(credentials("wrong"), text("t", "b"), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.FAILED, o.kind(), o.toString());
        assertTrue(o.reason().contains("16 Invalid Signature"), o.reason());
        assertEquals(0, sends().size());
    }

    @Test
    void authFaultRefreshesOnce() {
        Credentials c = credentials("m");
        adapter.send(c, text("t", "b"), deliveries("r1"));
        sim.faults().inject(Faults.Kind.AUTH, 1);
        assertEquals(Outcome.ACCEPTED, adapter.send(c, text("t", "b"), deliveries("r2")).get(0));
        assertEquals(2, auths().size());
        sim.faults().inject(Faults.Kind.AUTH, 2);
        assertEquals(Outcome.Kind.RETRY, adapter.send(c, text("t", "b"), deliveries("r3")).get(0).kind());
    }

    @Test
    void thousandTokensInOneRequest() throws Exception {
        assertEquals(1000, adapter.maxTargetsPerRequest());
        String[] tokens = new String[1000];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = String.format("CN_%040x", i); // real regIds are about this long
        }
        List<Outcome> out = adapter.send(credentials("m"), text("t", "b"), deliveries(tokens));
        assertTrue(out.stream().allMatch(o -> o == Outcome.ACCEPTED));
        assertEquals(1, sends().size());
        assertEquals(1000, JSON.readTree(form(sends().get(0).body()).get("messages")).size());
        assertEquals(1000, sim.recorder().distinctTokens());
    }

    @Test
    void perMessageErrors() {
        List<Outcome> out = adapter.send(credentials("m"), text("t", "b"),
                deliveries("good1", Faults.INVALID_PREFIX + "1", Faults.FLAKY_PREFIX + "1"));
        assertEquals(Outcome.ACCEPTED, out.get(0));
        assertEquals(Outcome.Kind.REJECTED, out.get(1).kind());
        assertEquals(Outcome.Kind.RETRY, out.get(2).kind());
        assertEquals(Outcome.ACCEPTED,
                adapter.send(credentials("m"), text("t", "b"), deliveries(Faults.FLAKY_PREFIX + "1")).get(0));
    }

    @Test
    void transientFaultIsRetry() {
        sim.faults().inject(Faults.Kind.TRANSIENT, 1);
        List<Outcome> out = adapter.send(credentials("m"), text("t", "b"), deliveries("a", "b"));
        assertTrue(out.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY), out.toString());
        assertEquals(0, sim.recorder().deliveries());
    }

    @Test
    void titleOnlyAndBodyOnlyAreFilledFromEachOther() throws Exception {
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("m"), text("Hello", ""), deliveries("r1")).get(0));
        JsonNode n = lastNotification();
        assertEquals("Hello", n.get("title").asText());
        assertEquals("Hello", n.get("content").asText());
        String body = "消息".repeat(40);
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("m"), text("", body), deliveries("r2")).get(0));
        n = lastNotification();
        assertEquals(body.substring(0, OppoAdapter.TITLE_MAX), n.get("title").asText());
        assertEquals(body, n.get("content").asText());
    }

    @Test
    void noTextAndCmdFailWithoutARequest() {
        Outcome empty = adapter.send(credentials("m"), text(" ", ""), deliveries("r1", "r2")).get(1);
        assertEquals(Outcome.failed("no title and no body"), empty);
        Notification cmd = text("t", "b");
        cmd.message().put("type", "cmd");
        assertEquals(Outcome.failed("vendor_c_no_pass_through"),
                adapter.send(credentials("m"), cmd, deliveries("r1")).get(0));
        assertEquals(0, sends().size());
    }

    @Test
    void emojiAreNeverCutInHalf() throws Exception {
        String laughs = "\uD83D\uDE02".repeat(60); // 60 code points, 120 UTF-16 chars
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("m"), text(laughs, laughs), deliveries("r1")).get(0));
        String title = lastNotification().get("title").asText();
        assertEquals("\uD83D\uDE02".repeat(25), title);
    }

    @Test
    void componentIntentOpensTheActivityByClassName() throws Exception {
        adapter.send(credentials("m"), withSettings(
                "{\"click_action\":\"intent\",\"intent\":\"com.example.app/.Detail;S.id=42\"}"), deliveries("r1"));
        JsonNode n = lastNotification();
        assertEquals(4, n.get("click_action_type").asInt());
        assertEquals("com.example.app.Detail", n.get("click_action_activity").asText());
        adapter.send(credentials("m"), withSettings(
                "{\"click_action\":\"intent\",\"intent\":\"intent://x#Intent;" + "S.k=v;".repeat(100) + "end\"}"),
                deliveries("r2"));
        assertEquals(0, lastNotification().get("click_action_type").asInt(), "too long for OPPO: open the app");
    }

    @Test
    void categoryIsThePushsElseTheAppsElseIm() throws Exception {
        Credentials appDefaults = credentialsWithDefaults("{\"category\":\"ACCOUNT\",\"notify_level\":16}");
        adapter.send(appDefaults, withSettings("{\"category\":\"ORDER\",\"notify_level\":1}"), deliveries("r1"));
        assertEquals("ORDER", lastNotification().get("category").asText());
        assertEquals(1, lastNotification().get("notify_level").asInt());
        adapter.send(appDefaults, text("t", "b"), deliveries("r2"));
        assertEquals("ACCOUNT", lastNotification().get("category").asText());
        assertEquals(16, lastNotification().get("notify_level").asInt());
        adapter.send(credentials("m"), text("t", "b"), deliveries("r3"));
        assertEquals(OppoAdapter.DEFAULT_CATEGORY, lastNotification().get("category").asText());
        assertEquals(OppoAdapter.DEFAULT_NOTIFY_LEVEL, lastNotification().get("notify_level").asInt());
    }

    @Test
    void aCategoryOppoDoesNotKnowFailsAtOnce() throws Exception {
        Outcome o = adapter.send(credentials("m"), withSettings("{\"category\":\"CHAT\"}"), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.FAILED, o.kind(), o.toString());
        assertTrue(o.reason().startsWith("41 Invalid Arguments: category"), o.reason());
    }

    @Test
    void aSpentDailyQuotaFailsAtOnceAndSparesImMessages() throws Exception {
        sim.setPublicDailyQuota(1);
        Notification marketing = withSettings("{\"category\":\"MARKETING\"}");
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("m"), marketing, deliveries("r1")).get(0));
        List<Outcome> spent = adapter.send(credentials("m"), marketing, deliveries("r2", "r3"));
        assertTrue(spent.stream().allMatch(o -> o.kind() == Outcome.Kind.FAILED
                && o.reason().startsWith("daily quota spent: 33")), spent.toString());
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("m"), text("t", "b"), deliveries("r4")).get(0),
                "通讯与服务 (IM) messages are not counted against the public quota");
    }

    @Test
    void returnCodesAreRejectedFailedOrRetried() {
        assertEquals(Outcome.Kind.REJECTED, OppoAdapter.outcome(10000, "Invalid Registration_id", null).kind());
        for (int permanent : new int[] {12, 28, 30, 40, 41, 51}) {
            assertEquals(Outcome.Kind.FAILED, OppoAdapter.outcome(permanent, "x", null).kind(), "code " + permanent);
        }
        assertEquals(Outcome.Kind.FAILED, OppoAdapter.outcome(33, "daily", null).kind());
        for (int transientCode : new int[] {-1, -2, 13, 99999}) {
            assertEquals(Outcome.Kind.RETRY, OppoAdapter.outcome(transientCode, "x", null).kind());
        }
    }

    @Test
    void aReceiptUrlLongerThanOppoTakesIsRefusedAtStart() {
        URI tooLong = URI.create("https://push.example.com/" + "r".repeat(OppoAdapter.CALLBACK_URL_MAX));
        assertThrows(IllegalArgumentException.class, () -> adapter(Optional.of(tooLong)));
    }

    @Test
    void everyMessageShapeIsAcceptedOrFailedAsDocumented() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter, credentials("m"), "CN_2DFC77B0D34EFDACA377F92554CBE4AB"),
                Map.of("both_empty", "no title and no body", "cmd", "vendor_c_no_pass_through"));
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
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/push/receipt/vendor_c");
            adapter(Optional.of(url)).send(credentials("m"), text("t", "b"),
                    deliveries("r1", Faults.INVALID_PREFIX + "x", "r2"));
            String body = bodies.poll(10, TimeUnit.SECONDS);
            assertNotNull(body);
            JsonNode list = JSON.readTree(body);
            assertEquals(2, list.size());
            assertEquals("99", list.get(0).get("param").asText());
            assertEquals("push_arrive", list.get(0).get("eventType").asText());
            assertEquals("r1", list.get(0).get("registrationIds").asText());
            assertEquals("r2", list.get(1).get("registrationIds").asText());
        } finally {
            server.stop(0);
        }
    }
}
