package io.imcore.pushworker.channel.meizu;

import static io.imcore.pushworker.channel.AdapterTestSupport.JSON;
import static io.imcore.pushworker.channel.AdapterTestSupport.notification;
import static io.imcore.pushworker.channel.AdapterTestSupport.recorded;
import static io.imcore.pushworker.channel.AdapterTestSupport.targetedDeliveries;
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
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.InJvmSimulator;
import io.imcore.pushworker.channel.MessageShapes;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.meizu.MeizuSimulator;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MeizuAdapterTest {

    static final String NOTIFY = MeizuAdapter.NOTIFICATION_PATH;
    static final String PASS_THROUGH = MeizuAdapter.PASS_THROUGH_PATH;
    static final MeizuSimulator simulator = new MeizuSimulator();
    @RegisterExtension
    static final InJvmSimulator running = new InJvmSimulator(simulator);

    static ChannelSettings settings(Optional<URI> receiptUrl) {
        return AdapterTestSupport.settings(Channel.MEIZU, running.base(), Optional.empty(), receiptUrl);
    }

    static MeizuAdapter adapter() {
        return new MeizuAdapter(settings(Optional.empty()));
    }

    static Credentials credentials(String secret) {
        return AdapterTestSupport.credentials(Channel.MEIZU, "meizu-prod", "100999", "", secret, 1);
    }

    /** Credentials whose certificate carries these message defaults (message_defaults). */
    static Credentials credentialsWithDefaults(String defaultsJson) throws Exception {
        Credentials plain = credentials("s");
        return new Credentials(plain.appId(), plain.channel(), plain.environment(), plain.name(),
                plain.providerAppId(), plain.appKey(), plain.appSecret(), plain.certificate(), plain.version(),
                (ObjectNode) JSON.readTree(defaultsJson));
    }

    static Notification simple(long taskId) {
        return textNotification(taskId, "Hi", "Hello");
    }

    /** A text push setting its own notice_msg_type. */
    static Notification withNoticeMsgType(int type) throws Exception {
        return notification(1, "{\"type\":\"text\",\"title\":\"T\",\"body\":\"B\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_e\":{\"notice_msg_type\":" + type + "}}}");
    }

    static List<Delivery> deliveries(String... tokens) {
        return targetedDeliveries("meizu-prod", tokens);
    }

    static List<Recorder.Request> requests(String path) {
        return recorded(simulator, path::equals);
    }

    static Map<String, String> form(Recorder.Request request) {
        return AdapterTestSupport.form(request.body());
    }

    /** The messageJson of the n-th request to {@code path}. */
    static JsonNode messageJson(String path, int n) throws Exception {
        return JSON.readTree(form(requests(path).get(n)).get("messageJson"));
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
        // the documented algorithm, spelled out: sorted raw k=v + secret
        assertEquals(md5("appId=100999messageJson=" + form.get("messageJson") + "pushIds=pidA,pidBsecret"),
                form.get("sign"));

        JsonNode m = JSON.readTree(form.get("messageJson"));
        assertEquals(MeizuAdapter.PRIVATE_MESSAGE, m.at("/noticeBarInfo/noticeMsgType").asInt());
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
        assertEquals("http://127.0.0.1:9/push/receipt/vendor_e/app1?key=rk", m.at("/extra/callback").asText());
        assertEquals("88", m.get("extra").get("callback.param").asText());
        assertEquals(1, m.get("extra").get("callback.type").asInt());
        // Meizu's notifications carry no picture and no badge
        assertFalse(m.toString().contains("img.example"));
        assertEquals(1, simulator.recorder().deliveriesTo("pidA"));
    }

    @Test
    void collapseKeyBecomesAnEightCharacterNotifyKey() throws Exception {
        String chat = "{\"type\":\"text\",\"title\":\"Alice\",\"body\":\"hi\",\"badge\":\"+1\",\"channels\":{},"
                + "\"notify_id\":77,\"group\":\"grp-1\",\"collapse_key\":";
        MeizuAdapter adapter = adapter();
        for (String key : List.of("c-3f9a1b2c", "c-00000001", "k".repeat(64))) {
            assertEquals(List.of(Outcome.ACCEPTED),
                    adapter.send(credentials("s"), notification(90, chat + "\"" + key + "\"}"), deliveries("pidA")));
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            JsonNode advance = messageJson(NOTIFY, i).get("advanceInfo");
            String notifyKey = advance.get("notifyKey").asText();
            assertTrue(notifyKey.matches("[0-9A-Za-z_-]{8}"), "PushAPI: at most 8 of [0-9A-Za-z_-]: " + notifyKey);
            keys.add(notifyKey);
        }
        assertEquals(3, new HashSet<>(keys).size(), "different conversations, different keys: " + keys);
        assertEquals(MeizuAdapter.notifyKey("c-3f9a1b2c"), keys.get(0), "the same conversation, the same key");
        assertFalse(messageJson(NOTIFY, 0).toString().contains("grp-1"), "Meizu has no group key");
        assertFalse(messageJson(NOTIFY, 0).toString().contains("77"), "Meizu has no numeric notification id");

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), simple(91), deliveries("pidA")));
        assertFalse(messageJson(NOTIFY, 3).get("advanceInfo").has("notifyKey"), "nothing without collapse_key");
    }

    @Test
    void defaultsAndUriIntent() throws Exception {
        MeizuAdapter adapter = adapter();
        adapter.send(credentials("s"), simple(1), deliveries("a"));
        JsonNode m = messageJson(NOTIFY, 0);
        assertEquals(0, m.at("/clickTypeInfo/clickType").asInt());
        assertEquals(0, m.at("/noticeExpandInfo/noticeExpandType").asInt());
        assertEquals(24, m.at("/pushTimeInfo/validTime").asInt());
        assertFalse(m.has("extra"));
        assertFalse(m.at("/clickTypeInfo").has("parameters"));

        Notification uri = notification(2, "{\"type\":\"text\",\"title\":\"T\",\"body\":\"B\",\"badge\":\"+1\","
                + "\"channels\":{\"vendor_e\":{\"click_action\":\"intent\",\"intent\":\"chat://room/1\"}}}");
        adapter.send(credentials("s"), uri, deliveries("a"));
        JsonNode m2 = messageJson(NOTIFY, 1);
        assertEquals(2, m2.at("/clickTypeInfo/clickType").asInt());
        assertEquals("chat://room/1", m2.at("/clickTypeInfo/url").asText());
    }

    @Test
    void titleOnlyAndBodyOnlyFillTheOtherField() throws Exception {
        MeizuAdapter adapter = adapter();
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), textNotification(1, "Only a title", ""),
                deliveries("a")));
        JsonNode titleOnly = messageJson(NOTIFY, 0);
        assertEquals("Only a title", titleOnly.at("/noticeBarInfo/title").asText());
        assertEquals("Only a title", titleOnly.at("/noticeBarInfo/content").asText());

        String body = "正文".repeat(20); // 40 characters: the title takes the first 32
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), textNotification(2, "", body),
                deliveries("a")));
        JsonNode bodyOnly = messageJson(NOTIFY, 1);
        assertEquals(body.substring(0, 32), bodyOnly.at("/noticeBarInfo/title").asText());
        assertEquals(body, bodyOnly.at("/noticeBarInfo/content").asText());
    }

    @Test
    void noTitleAndNoBodyFailsAtOnceWithoutARequest() {
        List<Outcome> outcomes = adapter().send(credentials("s"), textNotification(1, "", ""), deliveries("a", "b"));
        assertEquals(List.of(Outcome.failed(MeizuAdapter.NO_TEXT), Outcome.failed(MeizuAdapter.NO_TEXT)), outcomes);
        assertTrue(requests(NOTIFY).isEmpty());
    }

    @Test
    void noticeMsgTypeIsPrivateUnlessThePushOrTheAppSaysOtherwise() throws Exception {
        MeizuAdapter adapter = adapter();
        adapter.send(credentials("s"), simple(1), deliveries("a"));
        adapter.send(credentials("s"), withNoticeMsgType(0), deliveries("a"));
        adapter.send(credentialsWithDefaults("{\"notice_msg_type\":0}"), simple(1), deliveries("a"));
        adapter.send(credentialsWithDefaults("{\"notice_msg_type\":0}"), withNoticeMsgType(1), deliveries("a"));
        assertEquals(MeizuAdapter.PRIVATE_MESSAGE, messageJson(NOTIFY, 0).at("/noticeBarInfo/noticeMsgType").asInt());
        assertEquals(MeizuAdapter.PUBLIC_MESSAGE, messageJson(NOTIFY, 1).at("/noticeBarInfo/noticeMsgType").asInt());
        assertEquals(MeizuAdapter.PUBLIC_MESSAGE, messageJson(NOTIFY, 2).at("/noticeBarInfo/noticeMsgType").asInt());
        assertEquals(MeizuAdapter.PRIVATE_MESSAGE, messageJson(NOTIFY, 3).at("/noticeBarInfo/noticeMsgType").asInt());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"2", "-1", "\"1\"", "1.5", "true"})
    void aNoticeMsgTypeMeizuDoesNotKnowFailsAtOnce(String value) throws Exception {
        List<Outcome> outcomes = adapter().send(credentialsWithDefaults("{\"notice_msg_type\":" + value + "}"),
                simple(1), deliveries("a"));
        assertEquals(Outcome.Kind.FAILED, outcomes.get(0).kind());
        assertTrue(outcomes.get(0).reason().contains("notice_msg_type"), outcomes.get(0).reason());
        assertTrue(requests(NOTIFY).isEmpty());
    }

    @Test
    void publicMessagesPastTheDeviceDailyCapFailWithTheReason() throws Exception {
        MeizuAdapter adapter = adapter();
        Notification publicMessage = withNoticeMsgType(MeizuAdapter.PUBLIC_MESSAGE);
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), publicMessage, deliveries("d1")));
        }
        Outcome capped = adapter.send(credentials("s"), publicMessage, deliveries("d1")).get(0);
        assertEquals(Outcome.Kind.FAILED, capped.kind());
        assertTrue(capped.reason().startsWith("vendor_e_110011"), capped.reason());
        // private messages, our default for chat, are not capped
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), simple(1), deliveries("d1")));
    }

    @Test
    void passThroughGoesToTheUnvarnishedApiWithExtAsContent() throws Exception {
        MeizuAdapter adapter = new MeizuAdapter(settings(Optional.of(URI.create("http://127.0.0.1:9/r"))));
        Notification cmd = notification(3, "{\"type\":\"cmd\",\"title\":\"sync\",\"body\":\"\",\"badge\":\"+1\","
                + "\"ext\":{\"op\":\"sync\",\"seq\":7},\"channels\":{}}");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED), adapter.send(credentials("s"), cmd, deliveries("a", "b")));
        assertTrue(requests(NOTIFY).isEmpty());
        JsonNode m = messageJson(PASS_THROUGH, 0);
        assertEquals("sync", m.get("title").asText());
        assertEquals("{\"op\":\"sync\",\"seq\":7}", m.get("content").asText());
        assertEquals(1, m.at("/pushTimeInfo/offLine").asInt());
        assertFalse(m.has("extra")); // Meizu has receipts for notifications only

        Notification untitled = notification(4, "{\"type\":\"cmd\",\"title\":\"\",\"body\":\"\",\"badge\":\"+1\","
                + "\"ext\":{\"op\":\"sync\"},\"channels\":{}}");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), untitled, deliveries("a")));
        assertFalse(messageJson(PASS_THROUGH, 1).has("title")); // optional, but 1..32 characters when present
    }

    @Test
    void passThroughOverTheSizeLimitOrWithoutContentFailsAtOnce() throws Exception {
        ObjectNode big = JSON.createObjectNode().put("type", "cmd").put("title", "").put("body", "");
        big.putObject("ext").put("blob", "x".repeat(MeizuAdapter.PASS_THROUGH_CONTENT_MAX_BYTES));
        big.putObject("channels");
        Outcome tooBig = adapter().send(credentials("s"), new Notification(5, "app1", big), deliveries("a")).get(0);
        assertEquals(Outcome.Kind.FAILED, tooBig.kind());
        assertTrue(tooBig.reason().contains("over 2000 bytes"), tooBig.reason());

        Notification empty = notification(6, "{\"type\":\"cmd\",\"title\":\"t\",\"body\":\"\",\"badge\":\"+1\",\"channels\":{}}");
        assertEquals(List.of(Outcome.failed(MeizuAdapter.NO_PASS_THROUGH_CONTENT)),
                adapter().send(credentials("s"), empty, deliveries("a")));
        assertTrue(requests(PASS_THROUGH).isEmpty());
    }

    @Test
    void registeredAppChecksTheSign() {
        simulator.registerApp("100999", "right-secret");
        MeizuAdapter adapter = adapter();
        List<Outcome> wrong = adapter.send(credentials("wrong-secret"), simple(1), deliveries("a", "b"));
        wrong.forEach(o -> assertEquals(Outcome.Kind.RETRY, o.kind()));
        assertTrue(wrong.get(0).reason().startsWith("vendor_e_1006"), wrong.get(0).reason());
        assertEquals(0, simulator.recorder().deliveries());
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials("right-secret"), simple(1), deliveries("a", "b")));
    }

    @Test
    void aHundredPushIdsGoInOneRequestAndTheSimulatorRefusesMore() throws Exception {
        MeizuAdapter adapter = adapter();
        assertEquals(100, adapter.maxTargetsPerRequest());
        String[] tokens = IntStream.range(0, 101).mapToObj(i -> "pid" + i).toArray(String[]::new);
        List<Outcome> outcomes = adapter.send(credentials("s"), simple(1), deliveries(Arrays.copyOf(tokens, 100)));
        assertEquals(100, outcomes.stream().filter(o -> o.kind() == Outcome.Kind.ACCEPTED).count());
        assertEquals(1, requests(NOTIFY).size());
        assertEquals(100, form(requests(NOTIFY).get(0)).get("pushIds").split(",").length);
        // more than the provider takes is the dispatcher's bug: refused before any request
        assertThrows(IllegalArgumentException.class, () -> adapter.send(credentials("s"), simple(1), deliveries(tokens)));
        assertEquals(1, requests(NOTIFY).size());

        JsonNode answer = MeizuForms.post(running.base(), NOTIFY, MeizuForms.signed("100999", String.join(",", tokens),
                "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"}}", "s"));
        assertEquals("1005", answer.get("code").asText());
        assertEquals(100, simulator.recorder().deliveries());
    }

    @Test
    void perTokenResults() {
        MeizuAdapter adapter = adapter();
        List<Outcome> outcomes = adapter.send(credentials("s"), simple(1),
                deliveries("ok1", "invalid-x", "flaky-y", "switched-off-z", "ok2"));
        assertEquals(Outcome.ACCEPTED, outcomes.get(0));
        assertEquals(Outcome.rejected("vendor_e_110003"), outcomes.get(1));
        assertEquals(Outcome.Kind.RETRY, outcomes.get(2).kind());
        assertEquals(Outcome.rejected("vendor_e_110010"), outcomes.get(3));
        assertEquals(Outcome.ACCEPTED, outcomes.get(4));
        // the flaky token is accepted the second time
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials("s"), simple(1), deliveries("flaky-y")));
    }

    @Test
    void requestFaultsAreRetried() {
        MeizuAdapter adapter = adapter();
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
    void theAppsSpentDailyQuotaFailsAtOnce() {
        simulator.faults().inject(Faults.Kind.QUOTA_SPENT, 1);
        List<Outcome> spent = adapter().send(credentials("s"), simple(1), deliveries("a", "b"));
        spent.forEach(o -> assertEquals(Outcome.Kind.FAILED, o.kind()));
        assertTrue(spent.get(0).reason().startsWith("vendor_e_110019"), spent.get(0).reason());
        assertEquals(0, simulator.recorder().deliveries());
    }

    @Test
    void anAppMeizuDoesNotKnowFailsAtOnce() {
        Credentials notNumeric = AdapterTestSupport.credentials(Channel.MEIZU, "meizu-prod", "com.example", "", "s", 1);
        Outcome outcome = adapter().send(notNumeric, simple(1), deliveries("a")).get(0);
        assertEquals(Outcome.Kind.FAILED, outcome.kind());
        assertTrue(outcome.reason().startsWith("vendor_e_110000"), outcome.reason());
    }

    @ParameterizedTest
    @CsvSource({
            "110002, REJECTED", "110003, REJECTED", "110005, REJECTED", "110010, REJECTED",
            "110011, FAILED", "201, FAILED", "501, RETRY", "513, RETRY", "518, RETRY", "519, RETRY", "520, RETRY",
            "999, RETRY"})
    void perPushIdCodes(String code, Outcome.Kind kind) {
        Outcome outcome = MeizuAdapter.targetFailure(code);
        assertEquals(kind, outcome.kind());
        assertTrue(outcome.reason().startsWith("vendor_e_" + code), outcome.reason());
    }

    @ParameterizedTest
    @CsvSource({
            "1005, FAILED", "110004, FAILED", "110000, FAILED", "110001, FAILED", "110009, FAILED",
            "110019, FAILED", "110031, FAILED", "110033, FAILED", "110051, FAILED", "110053, FAILED",
            "110010, RETRY", "1006, RETRY", "500, RETRY", "1001, RETRY", "1003, RETRY", "999, RETRY"})
    void requestCodes(String code, Outcome.Kind kind) {
        Outcome outcome = MeizuAdapter.requestFailure(code, "msg");
        assertEquals(kind, outcome.kind());
        assertEquals("vendor_e_" + code + " msg", outcome.reason());
    }

    @Test
    void waitsTheProviderAsksFor() {
        assertEquals(Duration.ofSeconds(1), MeizuAdapter.requestFailure("110010", "").retryAfter());
        assertEquals(Duration.ofSeconds(1), MeizuAdapter.targetFailure("518").retryAfter());
        assertEquals(Duration.ofMinutes(1), MeizuAdapter.targetFailure("520").retryAfter());
    }

    /** Requests the adapter never sends, which Meizu refuses: the simulator must refuse them too (1005). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"noticeBarInfo\":{\"title\":\"\",\"content\":\"c\"}}",
            "{\"noticeBarInfo\":{\"content\":\"c\"}}",
            "{\"noticeBarInfo\":{\"title\":\"123456789012345678901234567890123\",\"content\":\"c\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\",\"noticeMsgType\":2}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\",\"noticeBarType\":1}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"noticeExpandInfo\":{\"noticeExpandType\":1}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"noticeExpandInfo\":{\"noticeExpandType\":2,\"noticeExpandImgUrl\":\"https://a/b.png\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"clickTypeInfo\":{\"clickType\":1}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"clickTypeInfo\":{\"clickType\":2,\"url\":\"\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"clickTypeInfo\":{\"clickType\":4}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"clickTypeInfo\":{\"parameters\":\"k=v\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"pushTimeInfo\":{\"offLine\":1,\"validTime\":73}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"pushTimeInfo\":{\"offLine\":1,\"validTime\":0}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"advanceInfo\":{\"notifyKey\":\"123456789\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"advanceInfo\":{\"notifyKey\":\"c-3f9a1b2c\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"advanceInfo\":{\"notifyKey\":\"c.3f9a\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"advanceInfo\":{\"notifyKey\":12}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"advanceInfo\":{\"suspend\":2}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"extra\":{\"callback\":\"\"}}",
            "{\"noticeBarInfo\":{\"title\":\"t\",\"content\":\"c\"},\"extra\":{\"callback\":\"http://a/r\",\"callback.type\":4}}",
            "not json"})
    void simulatorRefusesNotificationsMeizuRefuses(String messageJson) throws Exception {
        JsonNode answer = MeizuForms.post(running.base(), NOTIFY, MeizuForms.signed("100999", "a", messageJson, "s"));
        assertEquals("1005", answer.get("code").asText(), answer.toString());
        assertEquals(0, simulator.recorder().deliveries());
    }

    @Test
    void simulatorRefusesPassThroughMeizuRefusesAndMissingParameters() throws Exception {
        String tooLong = "{\"content\":\"" + "x".repeat(2001) + "\"}";
        String longTitle = "{\"title\":\"" + "t".repeat(33) + "\",\"content\":\"c\"}";
        for (String messageJson : List.of("{\"title\":\"t\"}", tooLong, longTitle)) {
            JsonNode answer = MeizuForms.post(running.base(), PASS_THROUGH,
                    MeizuForms.signed("100999", "a", messageJson, "s"));
            assertEquals("1005", answer.get("code").asText(), messageJson);
        }
        Map<String, String> noPushIds = MeizuForms.signed("100999", "", "{\"content\":\"c\"}", "s");
        assertEquals("110004", MeizuForms.post(running.base(), PASS_THROUGH, noPushIds).get("code").asText());
        assertEquals(0, simulator.recorder().deliveries());
    }

    @Test
    void everyMessageShapeIsAcceptedOrFailedAsDocumented() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter(), credentials("s"), "shape-device"),
                Map.of("both_empty", MeizuAdapter.NO_TEXT));
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
            Map<String, String> fields = AdapterTestSupport.form(received);
            assertNotNull(fields.get("access_token"));
            JsonNode cb = JSON.readTree(fields.get("cb"));
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
