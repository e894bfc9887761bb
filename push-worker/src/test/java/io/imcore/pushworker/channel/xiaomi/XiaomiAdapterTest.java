package io.imcore.pushworker.channel.xiaomi;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.deliveries;
import static io.imcore.pushworker.channel.AdapterTestSupport.form;
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
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.MessageShapes;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.xiaomi.XiaomiSimulator;
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

class XiaomiAdapterTest {

    static final XiaomiSimulator sim = new XiaomiSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(sim);
    static XiaomiAdapter adapter;

    @BeforeAll
    static void createAdapter() {
        adapter = adapter(Optional.empty());
        // the JVM's first exchange (class loading, a new connection) can exceed the 5 s request timeout on a loaded
        // machine: make it here, not in whichever test runs first (the simulator is reset before each test)
        adapter.send(credentials("warm-up"), text("warm", "up"), deliveries("warm-up"));
    }

    static XiaomiAdapter adapter(Optional<URI> receiptUrl) {
        return new XiaomiAdapter(settings(Channel.XIAOMI, running.base(), Optional.empty(), receiptUrl));
    }

    static Credentials credentials(String secret) {
        return AdapterTestSupport.credentials(Channel.XIAOMI, "mi", "com.example.chat", "", secret, 1L);
    }

    static Notification text(String title, String body) {
        return textNotification(88L, title, body);
    }

    static List<Recorder.Request> sends() {
        return recorded(sim, path -> path.startsWith("/v3/message/regid"));
    }

    @Test
    void mapsEveryField() throws Exception {
        long end = System.currentTimeMillis() / 1000 + 600;
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "标".repeat(60))
                .put("body", "short").put("big_text", "B".repeat(200)).put("badge", "+1")
                .put("show_end_time", end);
        m.putObject("ext").put("k", "v");
        m.putObject("channels").putObject("vendor_b").put("sound", "ding").put("channel_id", "im")
                .put("click_action", "intent").put("intent", "intent:#Intent;component=com.example/.Chat;end");
        List<Outcome> out = adapter(Optional.of(URI.create("http://cb.example/push/receipt/vendor_b")))
                .send(credentials("sec"), new Notification(88L, "app1", m), deliveries("r1", "r2"));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), out);
        assertEquals(1, sends().size());
        Recorder.Request req = sends().get(0);
        assertEquals("key=sec", req.headers().get("authorization"));
        assertTrue(req.headers().get("content-type").startsWith("application/x-www-form-urlencoded"));
        Map<String, String> f = form(req.body());
        assertEquals("r1,r2", f.get("registration_id"));
        assertEquals("com.example.chat", f.get("restricted_package_name"));
        assertEquals("标".repeat(49), f.get("title")); // "长度小于50"
        assertEquals("B".repeat(127), f.get("description")); // "长度小于128"
        assertEquals("1", f.get("extra.notification_style_type"));
        assertEquals("{\"k\":\"v\"}", f.get("payload"));
        assertEquals("0", f.get("pass_through"));
        assertEquals("-1", f.get("notify_type"));
        assertEquals("88", f.get("notify_id"));
        assertEquals("2", f.get("extra.notify_effect"));
        assertEquals("intent:#Intent;component=com.example/.Chat;end", f.get("extra.intent_uri"));
        assertEquals("android.resource://com.example.chat/raw/ding", f.get("extra.sound_uri"));
        assertEquals("im", f.get("extra.channel_id"));
        long ttl = Long.parseLong(f.get("time_to_live"));
        assertTrue(ttl > 590_000 && ttl <= 600_000, "ttl " + ttl);
        assertEquals("http://cb.example/push/receipt/vendor_b/app1?key=rk", f.get("extra.callback"));
        assertEquals("88", f.get("extra.callback.param"));
        assertEquals("1", f.get("extra.callback.type"));
    }

    @Test
    void notifyIdIsTheConversationsElseTheTasks() throws Exception {
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "Alice").put("body", "hi")
                .put("badge", "+1").put("collapse_key", "c-3f9a1b2c").put("notify_id", 2_147_483_647)
                .put("group", "c-3f9a1b2c");
        m.putObject("channels");
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials("sec"), new Notification(88L, "app1", m), deliveries("r1")));
        Map<String, String> f = form(sends().get(0).body());
        assertEquals("2147483647", f.get("notify_id"));
        assertFalse(sends().get(0).body().contains("c-3f9a1b2c"), "Xiaomi has no collapse or group field: " + f);

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("sec"), text("t", "b"), deliveries("r1")));
        assertEquals("88", form(sends().get(1).body()).get("notify_id"), "without notify_id: the task id");
    }

    @Test
    void defaults() {
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("sec"), text("t", "b"), deliveries("r1")));
        Map<String, String> f = form(sends().get(0).body());
        assertEquals("1", f.get("extra.notify_effect"));
        assertFalse(f.containsKey("extra.callback"));
        assertFalse(f.containsKey("payload"));
        assertFalse(f.containsKey("extra.channel_id"));
        assertFalse(f.containsKey("extra.notification_style_type"));
    }

    @Test
    void passThroughFailsAtOnceWithoutARequest() {
        ObjectNode cmd = JSON.createObjectNode().put("type", "cmd").put("title", "").put("body", "");
        cmd.putObject("ext").put("op", "sync");
        List<Outcome> out = adapter.send(credentials("sec"), new Notification(9L, "app1", cmd), deliveries("r1", "r2"));
        assertEquals(List.of(Outcome.failed(XiaomiAdapter.PASS_THROUGH_STOPPED),
                Outcome.failed(XiaomiAdapter.PASS_THROUGH_STOPPED)), out);
        assertEquals(0, sends().size());
    }

    @Test
    void titleOnlyAndBodyOnlyFillTheOtherField() {
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), text("Hello", ""), deliveries("r1")));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), text(" ", "from the server"),
                deliveries("r1")));
        Map<String, String> titleOnly = form(sends().get(0).body());
        assertEquals("Hello", titleOnly.get("title"));
        assertEquals("Hello", titleOnly.get("description"));
        Map<String, String> bodyOnly = form(sends().get(1).body());
        assertEquals("from the server", bodyOnly.get("title"));
        assertEquals("from the server", bodyOnly.get("description"));
    }

    @Test
    void blankTextsFailAtOnceWithoutARequest() {
        Outcome out = adapter.send(credentials("s"), text("  ", "\n"), deliveries("r1")).get(0);
        assertEquals(Outcome.failed(XiaomiAdapter.NO_TEXT), out);
        assertEquals(0, sends().size());
    }

    @Test
    void longTextsAreCutWithinXiaomisLimitsNeverSplittingACharacter() {
        String title = "a".repeat(48) + "\uD83D\uDE00" + "tail"; // an emoji across the 49th and 50th char
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), text(title, "😀".repeat(100)),
                deliveries("r1")));
        Map<String, String> f = form(sends().get(0).body());
        assertEquals("a".repeat(48), f.get("title"));
        assertEquals("😀".repeat(63), f.get("description")); // 126 chars: the 64th emoji would need 128
    }

    @Test
    void oversizedExtFailsAtOnce() {
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "t").put("body", "b");
        m.putObject("ext").put("k", "v".repeat(XiaomiAdapter.PAYLOAD_MAX_BYTES));
        assertEquals(Outcome.failed(XiaomiAdapter.PAYLOAD_TOO_LARGE),
                adapter.send(credentials("s"), new Notification(5L, "app1", m), deliveries("r1")).get(0));
        assertEquals(0, sends().size());
    }

    @Test
    void channelIdIsThePushsOwnElseTheAppsDefaultElseNone() {
        ObjectNode defaults = JSON.createObjectNode().put("channel_id", "im_private");
        Credentials withDefault = new Credentials("app1", Channel.XIAOMI, 1, "mi", "com.example.chat", "", "s", "",
                1L, defaults);
        adapter.send(withDefault, text("t", "b"), deliveries("r1"));
        ObjectNode own = JSON.createObjectNode().put("type", "text").put("title", "t").put("body", "b");
        own.putObject("channels").putObject("vendor_b").put("channel_id", "im_urgent");
        adapter.send(withDefault, new Notification(7L, "app1", own), deliveries("r1"));
        adapter.send(credentials("s"), text("t", "b"), deliveries("r1"));
        assertEquals("im_private", form(sends().get(0).body()).get("extra.channel_id"));
        assertEquals("im_urgent", form(sends().get(1).body()).get("extra.channel_id"));
        assertFalse(form(sends().get(2).body()).containsKey("extra.channel_id"));
    }

    @Test
    void channelTheAppHasNotRegisteredFailsAtOnce() {
        sim.registerChannel("com.example.chat", "im_private", true);
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "t").put("body", "b");
        m.putObject("channels").putObject("vendor_b").put("channel_id", "news");
        Outcome out = adapter.send(credentials("s"), new Notification(7L, "app1", m), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.FAILED, out.kind());
        assertTrue(out.reason().startsWith("27001"), out.reason());
        assertEquals(0, sim.recorder().deliveries());
    }

    @Test
    void spentDailyQuotaFailsAtOnceAndPrivateChannelsAreNotCounted() {
        sim.setPublicQuota("com.example.chat", 2);
        sim.registerChannel("com.example.chat", "im_private", true);
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("s"), text("t", "b"), deliveries("r1", "r2")));
        List<Outcome> spent = adapter.send(credentials("s"), text("t", "b"), deliveries("r3", "r4"));
        assertTrue(spent.stream().allMatch(o -> o.kind() == Outcome.Kind.FAILED
                && o.reason().startsWith("daily quota spent: 200001 exceed quota")), spent.toString());
        ObjectNode m = JSON.createObjectNode().put("type", "text").put("title", "t").put("body", "b");
        m.putObject("channels").putObject("vendor_b").put("channel_id", "im_private");
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials("s"), new Notification(8L, "app1", m), deliveries("r3")));
    }

    @Test
    void quotaSpentFaultFailsAtOnce() {
        sim.faults().inject(Faults.Kind.QUOTA_SPENT, 1);
        Outcome out = adapter.send(credentials("s"), text("t", "b"), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.FAILED, out.kind());
        assertTrue(out.reason().startsWith("daily quota spent: 200001"), out.reason());
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("s"), text("t", "b"), deliveries("r1")).get(0));
    }

    @Test
    void requestXiaomiRefusesFailsAtOnce() {
        // a certificate without the package name: 10016, the same answer whenever it is sent again
        Credentials noPackage = AdapterTestSupport.credentials(Channel.XIAOMI, "mi", "", "", "s", 1L);
        Outcome out = adapter.send(noPackage, text("t", "b"), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.FAILED, out.kind());
        assertTrue(out.reason().startsWith("10016"), out.reason());
    }

    @Test
    void everyMessageShapeIsAcceptedOrFailedAsDocumented() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter, credentials("s"), "regid-1"),
                Map.of("both_empty", XiaomiAdapter.NO_TEXT, "cmd", XiaomiAdapter.PASS_THROUGH_STOPPED));
    }

    @Test
    void registeredAppChecksTheKey() {
        sim.registerApp("com.example.chat", "", "right", "");
        Outcome wrong = adapter.send(credentials("wrong"), text("t", "b"), deliveries("r1")).get(0);
        assertEquals(Outcome.Kind.RETRY, wrong.kind());
        assertTrue(wrong.reason().contains("21301"), wrong.reason());
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("right"), text("t", "b"), deliveries("r1")).get(0));
        assertEquals(1, sim.recorder().deliveries());
    }

    @Test
    void authFaultIsRetry() {
        sim.faults().inject(Faults.Kind.AUTH, 1);
        assertEquals(Outcome.Kind.RETRY, adapter.send(credentials("s"), text("t", "b"), deliveries("r1")).get(0).kind());
        assertEquals(Outcome.ACCEPTED, adapter.send(credentials("s"), text("t", "b"), deliveries("r1")).get(0));
    }

    @Test
    void thousandTokensInOneRequest() {
        assertEquals(1000, adapter.maxTargetsPerRequest());
        String[] tokens = new String[1000];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = String.format("CN_%040x", i); // real regIds are about this long
        }
        List<Outcome> out = adapter.send(credentials("s"), text("t", "b"), deliveries(tokens));
        assertTrue(out.stream().allMatch(o -> o == Outcome.ACCEPTED));
        assertEquals(1, sends().size());
        assertEquals(1000, form(sends().get(0).body()).get("registration_id").split(",").length);
        assertEquals(1000, sim.recorder().distinctTokens());
    }

    @Test
    void badRegIdsRejectedOthersAccepted() {
        List<Outcome> out = adapter.send(credentials("s"), text("t", "b"),
                deliveries("good1", Faults.INVALID_PREFIX + "1", "good2"));
        assertEquals(Outcome.ACCEPTED, out.get(0));
        assertEquals(Outcome.Kind.REJECTED, out.get(1).kind());
        assertEquals(Outcome.ACCEPTED, out.get(2));
        List<Outcome> all = adapter.send(credentials("s"), text("t", "b"),
                deliveries(Faults.INVALID_PREFIX + "2", Faults.INVALID_PREFIX + "3"));
        assertTrue(all.stream().allMatch(o -> o.kind() == Outcome.Kind.REJECTED), all.toString());
    }

    @Test
    void transientFaultIsRetry() {
        sim.faults().inject(Faults.Kind.TRANSIENT, 1);
        List<Outcome> out = adapter.send(credentials("s"), text("t", "b"), deliveries("a", "b"));
        assertTrue(out.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY), out.toString());
        assertEquals(0, sim.recorder().deliveries());
    }

    @Test
    void receiptCallbackCarriesTheTaskId() throws Exception {
        BlockingQueue<String[]> bodies = new LinkedBlockingQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            bodies.add(new String[] {ex.getRequestHeaders().getFirst("content-type"),
                    new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)});
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/push/receipt/vendor_b");
            adapter(Optional.of(url)).send(credentials("s"), text("t", "b"),
                    deliveries("r1", Faults.INVALID_PREFIX + "x", "r2"));
            String[] got = bodies.poll(10, TimeUnit.SECONDS);
            assertNotNull(got);
            assertTrue(got[0].startsWith("application/x-www-form-urlencoded"));
            JsonNode data = JSON.readTree(form(got[1]).get("data"));
            JsonNode receipt = data.elements().next();
            assertEquals("88", receipt.get("param").asText());
            assertEquals(1, receipt.get("type").asInt());
            assertEquals("r1,r2", receipt.get("targets").asText());
        } finally {
            server.stop(0);
        }
    }
}
