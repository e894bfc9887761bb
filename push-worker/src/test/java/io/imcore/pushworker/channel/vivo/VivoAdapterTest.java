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
import io.imcore.simulators.vivo.VivoSimulator;
import io.vertx.core.json.JsonObject;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
        return AdapterTestSupport.settings(Channel.VIVO, running.base(), Optional.empty(), receiptUrl);
    }

    static Credentials credentials(String secret, long version) {
        return AdapterTestSupport.credentials(Channel.VIVO, "vivo-prod", "10004", "key-abc", secret, version);
    }

    /** Credentials whose certificate carries {@code message_defaults} (JSON). */
    static Credentials withDefaults(String messageDefaults) throws Exception {
        Credentials c = credentials("s", 1);
        return new Credentials(c.appId(), c.channel(), c.environment(), c.name(), c.providerAppId(), c.appKey(),
                c.appSecret(), c.certificate(), c.version(), (ObjectNode) MAPPER.readTree(messageDefaults), c.receiptKey());
    }

    static final Optional<URI> RECEIPT_URL = Optional.of(URI.create("http://127.0.0.1:9/push/receipt/vendor_d"));

    static Notification simple(long taskId) throws Exception {
        return notification(taskId, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"Hello\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_d\":{\"push_mode\":0}}}");
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
    void notifyIdIsSentOnBothPaths() throws Exception {
        Notification chat = notification(78, "{\"type\":\"text\",\"title\":\"Alice\",\"body\":\"hi\",\"badge\":\"+1\","
                + "\"collapse_key\":\"c-3f9a1b2c\",\"notify_id\":424242,\"group\":\"c-3f9a1b2c\","
                + "\"channels\":{\"vendor_d\":{\"push_mode\":0}}}");
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s", 1), chat, deliveries("tokA")));
        JsonNode single = json(requests("/message/send").get(0));
        assertEquals(424242, single.get("notifyId").asInt(), single.toString());
        assertTrue(single.get("notifyId").isInt(), single.toString());
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("s", 1), chat, deliveries("tokA", "tokB")));
        JsonNode list = json(requests("/message/saveListPayload").get(0));
        assertEquals(424242, list.get("notifyId").asInt(), list.toString());
        assertFalse(single.toString().contains("c-3f9a1b2c") || list.toString().contains("c-3f9a1b2c"),
                "vivo has no collapse or group key");

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s", 1), simple(79), deliveries("tokC")));
        assertFalse(json(requests("/message/send").get(1)).has("notifyId"), "nothing without notify_id");
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
        VivoAdapter adapter = new VivoAdapter(settings(RECEIPT_URL));
        List<Outcome> outcomes = adapter.send(withDefaults("{\"receipt_id\":\"1001\"}"), n, deliveries("tokA", "tokB"));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), outcomes);

        Recorder.Request auth = requests("/message/auth").get(0);
        JsonNode authBody = json(auth);
        assertEquals(10004, authBody.get("appId").asInt());
        assertTrue(authBody.get("appId").isInt());
        assertEquals("key-abc", authBody.get("appKey").asText());
        long ts = authBody.get("timestamp").asLong();
        assertTrue(Math.abs(System.currentTimeMillis() - ts) < 60_000);
        assertEquals(VivoAdapter.md5Hex("10004key-abc" + ts + "s"), authBody.get("sign").asText());
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
        assertEquals("IM", msg.get("category").asText());
        assertEquals(0, msg.get("pushMode").asInt());
        int ttl = msg.get("timeToLive").asInt();
        assertTrue(ttl > 3500 && ttl <= 3600, "ttl " + ttl);
        assertEquals("v", msg.get("clientCustomMap").get("k").asText());
        assertEquals("1", msg.get("clientCustomMap").get("n").asText());
        assertTrue(msg.get("clientCustomMap").get("n").isTextual());
        assertEquals("http://127.0.0.1:9/push/receipt/vendor_d/app1?key=rk", msg.get("extra").get("callback").asText());
        assertEquals("1001", msg.get("extra").get("callback.id").asText());
        assertEquals("77", msg.get("extra").get("callback.param").asText());
        assertFalse(msg.get("requestId").asText().isEmpty());
        assertFalse(msg.has("image") || msg.has("sound") || msg.has("channel_id") || msg.has("regId"));

        Recorder.Request push = requests("/message/pushToList").get(0);
        assertEquals(token, push.headers().get("authtoken"));
        JsonNode pushBody = json(push);
        assertEquals("[\"tokA\",\"tokB\"]", pushBody.get("regIds").toString());
        assertFalse(pushBody.get("taskId").asText().isEmpty());
        assertEquals(10004, pushBody.get("appId").asInt());
        assertFalse(pushBody.has("pushMode"), "the SDK's TargetMessage has no pushMode: the saved message has it");
        assertFalse(pushBody.get("requestId").asText().equals(msg.get("requestId").asText()));
        assertEquals(1, simulator.recorder().deliveriesTo("tokA"));
        assertEquals(1, simulator.recorder().deliveriesTo("tokB"));
    }

    @Test
    void defaultsOpenTheAppAndTestModeIsPassedOn() throws Exception {
        Notification n = notification(5, "{\"type\":\"text\",\"title\":\"\",\"body\":\"only body\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_d\":{\"push_mode\":1}}}");
        VivoAdapter adapter = new VivoAdapter(settings(RECEIPT_URL));
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(withDefaults("{\"receipt_id\":\"1001\"}"), n, deliveries("a1", "a2")));
        JsonNode msg = json(requests("/message/saveListPayload").get(0));
        assertEquals(1, msg.get("skipType").asInt());
        assertFalse(msg.has("skipContent"));
        assertFalse(msg.has("extra"), "vivo sends receipts for formal messages only");
        assertFalse(msg.has("timeToLive"));
        assertFalse(msg.has("clientCustomMap"));
        assertEquals(1, msg.get("pushMode").asInt());
        assertEquals("only body", msg.get("title").asText()); // vivo needs a title: the body stands in
    }

    @Test
    void titleOnlyAndBodyOnlyPushesAreFilledAndAccepted() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(c, AdapterTestSupport.textNotification(1, "Hello", ""),
                deliveries("t1")));
        JsonNode titleOnly = json(requests("/message/send").get(0));
        assertEquals("Hello", titleOnly.get("title").asText());
        assertEquals("Hello", titleOnly.get("content").asText());
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(c,
                AdapterTestSupport.textNotification(2, "  ", "from the server"), deliveries("t2", "t3")));
        JsonNode bodyOnly = json(requests("/message/saveListPayload").get(0));
        assertEquals("from the server", bodyOnly.get("title").asText());
        assertEquals("from the server", bodyOnly.get("content").asText());
        assertEquals(3, simulator.recorder().deliveries());
    }

    @Test
    void noTitleAndNoBodyFailsAtOnceWithoutCallingVivo() {
        List<Outcome> outcomes = new VivoAdapter(settings(Optional.empty())).send(credentials("s", 1),
                AdapterTestSupport.textNotification(1, "", " "), deliveries("a", "b"));
        assertEquals(List.of(Outcome.failed("no title and no body"), Outcome.failed("no title and no body")), outcomes);
        assertEquals(0, simulator.recorder().requestCount());
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
    }

    @Test
    void singleSendWithAnInvalidUserRejectsTheToken() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        // vivo answers result 0 with invalidUser {userid, status}: the regId is dead, nothing was delivered
        assertEquals(List.of(Outcome.rejected("vendor_d_invalid_user_1")),
                adapter.send(credentials("s", 1), simple(1), deliveries("invalid-one")));
        assertEquals(List.of(Outcome.rejected("vendor_d_10302")),
                adapter.send(credentials("s", 1), simple(1), deliveries(VivoSimulator.MALFORMED_REGID_PREFIX + "-x")));
        simulator.answerNextPush(new JsonObject().put("result", 0).put("desc", "请求成功").put("taskId", "1")
                .put("invalidUser", new JsonObject().put("userid", "test-only").put("status", 4)));
        assertEquals(List.of(Outcome.failed("vendor_d_not_a_test_device")),
                adapter.send(credentials("s", 1), simple(1), deliveries("test-only")));
        assertEquals(0, simulator.recorder().deliveries());
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
        ChannelSettings down = new ChannelSettings(Channel.VIVO, URI.create("http://127.0.0.1:1"),
                URI.create("http://127.0.0.1:1"), Optional.empty(), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(2), 4);
        List<Outcome> outcomes = new VivoAdapter(down).send(credentials("s", 1), simple(1), deliveries("a", "b"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
    }

    @Test
    void passThroughIsNotSentToVivo() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Notification cmd = notification(1, "{\"type\":\"cmd\",\"title\":\"\",\"body\":\"\",\"badge\":\"+1\","
                + "\"ext\":{\"a\":1},\"channels\":{\"vendor_d\":{\"push_mode\":0}}}");
        List<Outcome> outcomes = adapter.send(credentials("s", 1), cmd, deliveries("a", "b"));
        outcomes.forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertEquals(0, simulator.recorder().requestCount());
    }

    @Test
    void truncationCountsEveryNonAsciiCharacterAsTwo() {
        assertEquals(40, VivoMessage.vivoLength(VivoMessage.truncate("中".repeat(30), 40)));
        assertEquals("a", VivoMessage.truncate("a😀b", 2)); // the SDK counts an emoji as two
        assertEquals("ab中", VivoMessage.truncate("ab中c", 4));
        assertEquals(4, VivoMessage.vivoLength("é😀"));
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
            adapter.send(withDefaults("{\"receipt_id\":\"1001\"}"), simple(4242), deliveries("r1", "invalid-r", "r2"));
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

    /** The category and classification of the message sent for {@code vivoEntry} (the push's channels.vendor_d). */
    static JsonNode sentClassing(Credentials credentials, String vivoEntry) throws Exception {
        simulator.reset();
        Notification n = notification(3, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"there\",\"badge\":\"+1\","
                + "\"channels\":{" + (vivoEntry == null ? "" : "\"vendor_d\":" + vivoEntry) + "}}");
        assertEquals(List.of(Outcome.ACCEPTED), new VivoAdapter(settings(Optional.empty())).send(credentials, n,
                deliveries("c1")));
        JsonNode sent = json(requests("/message/send").get(0));
        return MAPPER.createObjectNode().put("category", sent.path("category").asText(null))
                .put("classification", sent.get("classification").asInt());
    }

    @Test
    void categoryIsImUnlessThePushOrTheAppSaysOtherwise() throws Exception {
        Credentials bare = credentials("s", 1);
        assertEquals("{\"category\":\"IM\",\"classification\":1}", sentClassing(bare, null).toString());
        // a push's own classification 0 (push-service keeps it only when the push set it) makes it operational
        assertEquals("{\"category\":null,\"classification\":0}",
                sentClassing(bare, "{\"push_mode\":0,\"classification\":0}").toString());
        assertEquals("{\"category\":\"IM\",\"classification\":1}",
                sentClassing(bare, "{\"push_mode\":0,\"classification\":1}").toString());
        assertEquals("{\"category\":\"NEWS\",\"classification\":0}",
                sentClassing(bare, "{\"push_mode\":0,\"classification\":1,\"category\":\"NEWS\"}").toString());
        Credentials orders = withDefaults("{\"category\":\"ORDER\"}");
        assertEquals("{\"category\":\"ORDER\",\"classification\":1}", sentClassing(orders, null).toString());
        assertEquals("{\"category\":\"SOCIAL\",\"classification\":0}",
                sentClassing(orders, "{\"classification\":0,\"category\":\"SOCIAL\"}").toString());
        // an app whose default is operational (classification 0) sends without a category, unless a push says 1
        Credentials operational = withDefaults("{\"classification\":0}");
        assertEquals("{\"category\":null,\"classification\":0}", sentClassing(operational, null).toString());
        assertEquals("{\"category\":\"IM\",\"classification\":1}",
                sentClassing(operational, "{\"classification\":1}").toString());
    }

    @Test
    void anUnknownCategoryFailsAtOnceWithoutCallingVivo() throws Exception {
        List<Outcome> outcomes = new VivoAdapter(settings(Optional.empty())).send(withDefaults("{\"category\":\"im\"}"),
                simple(1), deliveries("a", "b"));
        assertEquals(List.of(Outcome.failed("vendor_d_category_invalid im"), Outcome.failed("vendor_d_category_invalid im")),
                outcomes);
        assertEquals(0, simulator.recorder().requestCount());
    }

    @Test
    void noReceiptIsRequestedWithoutTheReceiptId() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(RECEIPT_URL));
        adapter.send(credentials("s", 1), simple(1), deliveries("a"));
        assertFalse(json(requests("/message/send").get(0)).has("extra"));
        new VivoAdapter(settings(Optional.empty())).send(withDefaults("{\"receipt_id\":\"1001\"}"), simple(1),
                deliveries("b"));
        assertFalse(json(requests("/message/send").get(1)).has("extra"), "no receipt-url, no receipt");
    }

    @Test
    void aSpentDailyQuotaFailsAtOnceAndVivoIsNotCalledAgainThatDay() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        simulator.faults().inject(Faults.Kind.QUOTA_SPENT, 1); // answered 10070 on the push, not on auth
        List<Outcome> outcomes = adapter.send(c, simple(1), deliveries("a"));
        assertEquals(Outcome.Kind.FAILED, outcomes.get(0).kind());
        assertTrue(outcomes.get(0).reason().startsWith("vendor_d_10070"), outcomes.get(0).reason());
        long calls = simulator.recorder().requestCount();
        List<Outcome> later = adapter.send(c, simple(2), deliveries("b", "c"));
        later.forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertEquals(calls, simulator.recorder().requestCount(), "vivo asks not to be called again that day");
        // another app's quota is its own
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(new Credentials("app2", Channel.VIVO, 1, "other",
                "10005", "k", "s", "", 1), simple(3), deliveries("d")));
    }

    @Test
    void aSpentListPayloadQuotaStopsGroupPushesOnly() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        simulator.answerNextPush(10252, "批量发送消息体超出限制");
        adapter.send(c, simple(1), deliveries("a", "b")).forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        adapter.send(c, simple(2), deliveries("c", "d")).forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertEquals(1, requests("/message/saveListPayload").size());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(c, simple(3), deliveries("e")));
    }

    @Test
    void aSpentQuotaOnPushToListIsNotAnsweredBySavingTheMessageAgain() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        adapter.send(c, simple(1), deliveries("a", "b")); // saved, taskId cached
        simulator.answerNextPush(10070, "发送总量超出限制");
        adapter.send(c, simple(1), deliveries("c", "d")).forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertEquals(1, requests("/message/saveListPayload").size());
        assertEquals(2, requests("/message/pushToList").size());
    }

    @Test
    void aRefusalFailsAtOnceAndARateLimitIsRetried() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        simulator.answerNextPush(10055, "title 不合法");
        assertEquals(List.of(Outcome.failed("vendor_d_10055 title 不合法")), adapter.send(c, simple(1), deliveries("a")));
        simulator.answerNextPush(10072, "发送速度过快");
        assertEquals(List.of(Outcome.retry("vendor_d_10072 发送速度过快")), adapter.send(c, simple(1), deliveries("a")));
        assertEquals(2, requests("/message/send").size());
    }

    @Test
    void anExpiredVivoTaskIdIsSavedAgainOnce() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        Credentials c = credentials("s", 1);
        adapter.send(c, simple(1), deliveries("a", "b")); // the task's message is saved and its taskId cached
        simulator.answerNextPush(10303, "taskId 不合法");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(c, simple(1), deliveries("c", "d")));
        assertEquals(2, requests("/message/saveListPayload").size());
        assertEquals(3, requests("/message/pushToList").size());
        // refused right after a fresh save: failed at once, no loop (the simulator does not know taskId 999)
        simulator.answerNextPush(new JsonObject().put("result", 0).put("desc", "请求成功").put("taskId", "999"));
        assertEquals(List.of(Outcome.failed("vendor_d_10303 taskId 不合法"), Outcome.failed("vendor_d_10303 taskId 不合法")),
                adapter.send(c, simple(9), deliveries("e", "f")));
        assertEquals(3, requests("/message/saveListPayload").size());
        assertEquals(4, requests("/message/pushToList").size());
    }

    @Test
    void anExtVivoCannotCarryFailsAtOnce() throws Exception {
        StringBuilder ext = new StringBuilder("{");
        for (int i = 0; i < 11; i++) {
            ext.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        Notification n = notification(1, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"b\",\"badge\":\"+1\",\"ext\":"
                + ext + "},\"channels\":{}}");
        Outcome outcome = new VivoAdapter(settings(Optional.empty())).send(credentials("s", 1), n, deliveries("a")).get(0);
        assertEquals(Outcome.Kind.FAILED, outcome.kind());
        assertTrue(outcome.reason().startsWith("vendor_d_ext_too_large"), outcome.reason());
        assertEquals(0, simulator.recorder().requestCount());
    }

    @Test
    void aComponentIntentBecomesAnIntentUriAndATooLongOneOpensTheApp() throws Exception {
        VivoAdapter adapter = new VivoAdapter(settings(Optional.empty()));
        adapter.send(credentials("s", 1), notification(1, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"b\","
                + "\"badge\":\"+1\",\"channels\":{\"vendor_d\":{\"click_action\":\"intent\",\"intent\":"
                + "\"com.example.chat/.ChatActivity;S.id=42\",\"push_mode\":0}}}"), deliveries("a"));
        JsonNode sent = json(requests("/message/send").get(0));
        assertEquals(4, sent.get("skipType").asInt());
        assertEquals("intent:#Intent;component=com.example.chat/.ChatActivity;S.id=42;end", sent.get("skipContent").asText());
        adapter.send(credentials("s", 1), notification(2, "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"b\","
                + "\"badge\":\"+1\",\"channels\":{\"vendor_d\":{\"click_action\":\"intent\",\"intent\":"
                + "\"com.example.chat/.ChatActivity;S.id=" + "4".repeat(1100) + "\"}}}"), deliveries("a"));
        JsonNode tooLong = json(requests("/message/send").get(1));
        assertEquals(1, tooLong.get("skipType").asInt());
        assertFalse(tooLong.has("skipContent"));
    }

    @Test
    void everyMessageShapeIsAcceptedOrFailedAsDocumented() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(new VivoAdapter(settings(Optional.empty())), credentials("s", 1), "shape-token"),
                Map.of("both_empty", "no title and no body",
                        "large_ext", "vendor_d_ext_too_large",
                        "cmd", "vendor_d_no_pass_through"));
    }
}
