package io.imcore.pushworker.channel.apns;

import static io.imcore.pushworker.channel.AdapterTestSupport.badgedDeliveries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.imcore.simulators.apns.ApnsSimulator;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The ios adapter against two in-JVM APNs simulators (production and sandbox). */
class ApnsAdapterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong VERSIONS = new AtomicLong(1);

    @TempDir
    static Path dir;

    static final ApnsSimulator production = new ApnsSimulator();
    static final ApnsSimulator sandbox = new ApnsSimulator();
    @RegisterExtension
    static final InJvmSimulator runningProduction = new InJvmSimulator(production);
    @RegisterExtension
    static final InJvmSimulator runningSandbox = new InJvmSimulator(sandbox);
    static ChannelSettings settings;

    ApnsAdapter adapter;

    @BeforeAll
    static void trustBothSimulators() throws Exception {
        Path trust = dir.resolve("trust.pem");
        Files.writeString(trust, Files.readString(runningProduction.workDir().resolve("apns-ca.pem"))
                + Files.readString(runningSandbox.workDir().resolve("apns-ca.pem")));
        settings = new ChannelSettings(Channel.APNS, URI.create("https://127.0.0.1:" + production.port()),
                URI.create("https://127.0.0.1:" + sandbox.port()), Optional.empty(), Optional.empty(),
                Optional.of(trust), Duration.ofSeconds(20), 64);
    }

    @BeforeEach
    void setUp() {
        adapter = new ApnsAdapter(settings);
    }

    @AfterEach
    void tearDown() {
        adapter.close();
    }

    // ---- helpers

    static String p8() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        byte[] der = generator.generateKeyPair().getPrivate().getEncoded();
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END PRIVATE KEY-----\n";
    }

    static Credentials tokenAuth(int environment, String keyId, String p8) {
        return new Credentials("app1", Channel.APNS, environment, "ios-cert", "TEAM123456.com.example.chat", keyId,
                "", p8, VERSIONS.incrementAndGet());
    }

    static Notification notification(String json) throws Exception {
        return AdapterTestSupport.notification(7L, json);
    }

    static List<Delivery> deliveries(String... tokens) {
        return badgedDeliveries(3, tokens);
    }

    static Recorder.Request lastPush(ApnsSimulator simulator) {
        List<Recorder.Request> requests = simulator.recorder().requests();
        for (int i = requests.size() - 1; i >= 0; i--) {
            if (requests.get(i).path().startsWith("/3/device/")) {
                return requests.get(i);
            }
        }
        throw new AssertionError("no push request recorded");
    }

    static final String SIMPLE = "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"Hello\",\"badge\":\"+1\",\"channels\":{}}";

    @Test
    void everyMessageShapeIsAcceptedOrFailsAtOnce() throws Exception {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter, tokenAuth(1, "KEYID12345", p8()), "a1b2c3d4".repeat(8)), Map.of());
    }

    // ---- mapping

    @Test
    void alertPayloadAndHeadersMapEveryField() throws Exception {
        Notification n = notification("""
                {"type":"image","title":"Alice","body":"sent you a photo","badge":"+1",
                 "attachment_url":"https://img.example.com/a.png","show_end_time":2000000000,
                 "big_text":"a much longer text","ext":{"conv":"c1","n":5,"aps":{"x":1}},
                 "ios":{"sound":"ping.caf","subtitle":"Group chat","category":"MSG","thread_id":"c1",
                        "content_available":true,"ios_collapse_id":"c1-last"},
                 "channels":{}}""");
        List<Outcome> outcomes = adapter.send(tokenAuth(1, "KEY1234567", p8()), n,
                List.of(new Delivery(null, "tok-map", 42)));
        assertEquals(List.of(Outcome.ACCEPTED), outcomes);

        Recorder.Request request = lastPush(production);
        assertEquals("POST", request.method());
        assertEquals("/3/device/tok-map", request.path());
        Map<String, String> h = request.headers();
        assertEquals("com.example.chat", h.get("apns-topic"));
        assertEquals("alert", h.get("apns-push-type"));
        assertEquals("10", h.get("apns-priority"));
        assertEquals("c1-last", h.get("apns-collapse-id"));
        assertEquals("2000000000", h.get("apns-expiration"));
        assertTrue(h.get("authorization").startsWith("bearer "), h.get("authorization"));

        JsonNode body = MAPPER.readTree(request.body());
        JsonNode aps = body.get("aps");
        assertEquals("Alice", aps.at("/alert/title").asText());
        assertEquals("Group chat", aps.at("/alert/subtitle").asText());
        assertEquals("sent you a photo", aps.at("/alert/body").asText());
        assertEquals(42, aps.get("badge").asInt());
        assertEquals("ping.caf", aps.get("sound").asText());
        assertEquals(1, aps.get("content-available").asInt());
        assertEquals(1, aps.get("mutable-content").asInt(), "an image needs the service extension");
        assertEquals("MSG", aps.get("category").asText());
        assertEquals("c1", aps.get("thread-id").asText());
        assertFalse(aps.has("x"), "ext must not override aps");
        assertEquals("c1", body.get("conv").asText());
        assertEquals(5, body.get("n").asInt());
        assertEquals("https://img.example.com/a.png", body.get("attachment_url").asText());
        assertFalse(request.body().contains("a much longer text"), "APNs has no big text");
        assertEquals(1, production.recorder().deliveriesTo("tok-map"));
    }

    @Test
    void minimalAlertHasNoOptionalKeys() throws Exception {
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(tokenAuth(1, "KEY1234567", p8()),
                notification(SIMPLE), List.of(new Delivery(null, "tok-min", null))));
        Recorder.Request request = lastPush(production);
        JsonNode body = MAPPER.readTree(request.body());
        assertEquals(1, body.size(), request.body());
        JsonNode aps = body.get("aps");
        assertEquals(1, aps.size(), "alert only: " + request.body());
        assertNull(request.headers().get("apns-collapse-id"));
        long expiration = Long.parseLong(request.headers().get("apns-expiration"));
        long inADay = System.currentTimeMillis() / 1000 + 86400;
        assertTrue(Math.abs(expiration - inADay) < 120, "kept a day without show_end_time: " + expiration);
    }

    @Test
    void collapseKeyIsTheCollapseIdUnlessIosCollapseIdIsSet() throws Exception {
        Credentials credentials = tokenAuth(1, "KEY1234567", p8());
        String chat = "{\"type\":\"text\",\"title\":\"Alice\",\"body\":\"hi\",\"badge\":\"+1\",\"channels\":{},"
                + "\"collapse_key\":\"c-3f9a1b2c\",\"notify_id\":77,\"group\":\"c-3f9a1b2c\"";
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials, notification(chat + "}"), deliveries("tok-ck")));
        Recorder.Request request = lastPush(production);
        assertEquals("c-3f9a1b2c", request.headers().get("apns-collapse-id"));
        JsonNode aps = MAPPER.readTree(request.body()).get("aps");
        assertFalse(aps.has("thread-id"), "group is not thread-id (push-service sets ios.thread_id): " + request.body());
        assertFalse(request.body().contains("77"), "APNs has no numeric notification id: " + request.body());

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials,
                notification(chat + ",\"ios\":{\"ios_collapse_id\":\"own\"}}"), deliveries("tok-ck2")));
        assertEquals("own", lastPush(production).headers().get("apns-collapse-id"), "ios_collapse_id wins");

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("tok-ck3")));
        assertNull(lastPush(production).headers().get("apns-collapse-id"), "no collapse_key, no header");
    }

    @Test
    void cmdIsABackgroundPush() throws Exception {
        Notification n = notification("""
                {"type":"cmd","title":"sync","body":"inbox","badge":"+1","ext":{"op":"refresh"},
                 "ios":{"sound":"x.caf"},"channels":{}}""");
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(tokenAuth(1, "KEY1234567", p8()), n, deliveries("tok-cmd")));
        Recorder.Request request = lastPush(production);
        assertEquals("background", request.headers().get("apns-push-type"));
        assertEquals("5", request.headers().get("apns-priority"));
        JsonNode body = MAPPER.readTree(request.body());
        assertEquals(MAPPER.readTree("{\"content-available\":1}"), body.get("aps"));
        assertEquals("refresh", body.get("op").asText());
        assertEquals("sync", body.get("title").asText());
        assertEquals("inbox", body.get("body").asText());
    }

    @Test
    void longTextsAreTruncatedUnderTheLimit() throws Exception {
        String body = "\u4f60\u597d".repeat(2000); // 12000 bytes
        String title = "t".repeat(256);
        ObjectNode message = (ObjectNode) MAPPER.readTree(SIMPLE);
        message.put("body", body).put("title", title);
        message.putObject("ext").put("k", "v".repeat(500));
        List<Outcome> outcomes = adapter.send(tokenAuth(1, "KEY1234567", p8()),
                new Notification(1L, "app1", message), deliveries("tok-long"));
        assertEquals(List.of(Outcome.ACCEPTED), outcomes);
        Recorder.Request request = lastPush(production);
        int size = request.body().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(size <= 4096 && size > 3900, "size " + size);
        JsonNode sent = MAPPER.readTree(request.body());
        String sentBody = sent.at("/aps/alert/body").asText();
        assertTrue(sentBody.endsWith("\u2026") && body.startsWith(sentBody.substring(0, sentBody.length() - 1)));
        assertEquals(title, sent.at("/aps/alert/title").asText(), "the body is cut first");
        assertEquals(500, sent.get("k").asText().length());
    }

    // ---- outcomes

    @Test
    void invalidTokensAreRejectedAndTransientOnesRetried() throws Exception {
        Credentials credentials = tokenAuth(1, "KEY1234567", p8());
        List<Outcome> outcomes = adapter.send(credentials, notification(SIMPLE),
                deliveries("tok-ok", "invalid-1", ApnsSimulator.UNREGISTERED_PREFIX + "-2", "flaky-1"));
        assertEquals(Outcome.ACCEPTED, outcomes.get(0));
        assertEquals(Outcome.rejected("BadDeviceToken"), outcomes.get(1));
        assertEquals(Outcome.rejected("Unregistered"), outcomes.get(2));
        assertEquals(Outcome.Kind.RETRY, outcomes.get(3).kind());
        assertEquals("TooManyRequests", outcomes.get(3).reason());

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE),
                deliveries("flaky-1")), "a flaky token is accepted the second time");
        assertEquals(1, production.recorder().deliveriesTo("flaky-1"));
        assertEquals(0, production.recorder().deliveriesTo("invalid-1"));
    }

    @Test
    void transientFaultIsRetried() throws Exception {
        Credentials credentials = tokenAuth(1, "KEY1234567", p8());
        production.faults().inject(Faults.Kind.TRANSIENT, 1);
        Outcome outcome = adapter.send(credentials, notification(SIMPLE), deliveries("tok-t")).get(0);
        assertEquals(Outcome.Kind.RETRY, outcome.kind());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("tok-t")));
    }

    @Test
    void aSlowAnswerIsWaitedForNotRetried() throws Exception {
        // Pushy cannot take back a request it holds: one answered after request-timeout was still delivered, and a
        // RETRY then sent it twice (a cold push.sh saw 256 repeated iOS tokens). Such an answer now counts.
        ChannelSettings quick = new ChannelSettings(Channel.APNS, settings.baseUrl(), settings.developmentBaseUrl(),
                Optional.empty(), Optional.empty(), settings.trustCertificate(), Duration.ofMillis(500), 64);
        ApnsAdapter impatient = new ApnsAdapter(quick);
        try {
            Credentials credentials = tokenAuth(1, "KEY1234567", p8());
            assertEquals(List.of(Outcome.ACCEPTED), impatient.send(credentials, notification(SIMPLE),
                    deliveries("tok-warm"))); // the connection is up: the wait below is the answer's alone
            production.setLatencyMillis(1_200);
            assertEquals(List.of(Outcome.ACCEPTED), impatient.send(credentials, notification(SIMPLE),
                    deliveries("tok-slow")));
            assertEquals(1, production.recorder().deliveriesTo("tok-slow"));
        } finally {
            production.setLatencyMillis(0);
            impatient.close();
        }
    }

    @Test
    void authFaultIsRetriedAndRecovers() throws Exception {
        Credentials credentials = tokenAuth(1, "KEY1234567", p8());
        production.faults().inject(Faults.Kind.AUTH, 1);
        Outcome outcome = adapter.send(credentials, notification(SIMPLE), deliveries("tok-a")).get(0);
        assertEquals(Outcome.Kind.RETRY, outcome.kind());
        assertTrue(outcome.reason().contains("InvalidProviderToken"), outcome.reason());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("tok-a")));
    }

    @Test
    void registeredKeyIsVerified() throws Exception {
        String good = p8();
        production.registerApp("TEAM123456.com.example.chat", "KEY1234567", "", good);
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(tokenAuth(1, "KEY1234567", good), notification(SIMPLE), deliveries("tok-r")));

        Outcome wrongKey = adapter.send(tokenAuth(1, "KEY1234567", p8()), notification(SIMPLE),
                deliveries("tok-r2")).get(0);
        assertEquals(Outcome.Kind.RETRY, wrongKey.kind());
        assertTrue(wrongKey.reason().contains("InvalidProviderToken"), wrongKey.reason());

        Outcome unknownKey = adapter.send(tokenAuth(1, "OTHERKEY99", good), notification(SIMPLE),
                deliveries("tok-r3")).get(0);
        assertEquals(Outcome.Kind.RETRY, unknownKey.kind());
        assertEquals(0, production.recorder().deliveriesTo("tok-r2") + production.recorder().deliveriesTo("tok-r3"));
    }

    @Test
    void unusableCredentialsAreRetriesNotExceptions() throws Exception {
        Credentials broken = new Credentials("app1", Channel.APNS, 1, "ios-cert", "TEAM123456.com.example.chat",
                "KEY1234567", "", "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n",
                VERSIONS.incrementAndGet());
        List<Outcome> outcomes = adapter.send(broken, notification(SIMPLE), deliveries("a", "b"));
        assertEquals(2, outcomes.size());
        assertTrue(outcomes.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY
                && o.reason().startsWith("credentials")), outcomes.toString());
        assertEquals(0, production.recorder().requestCount());
    }

    @Test
    void fiveHundredTokensInOneCall() throws Exception {
        List<Delivery> many = new ArrayList<>();
        for (int i = 0; i < adapter.maxTargetsPerRequest(); i++) {
            many.add(new Delivery(null, "tok-" + i, i % 7));
        }
        List<Outcome> outcomes = adapter.send(tokenAuth(1, "KEY1234567", p8()), notification(SIMPLE), many);
        assertEquals(500, outcomes.size());
        assertEquals(500, outcomes.stream().filter(o -> o == Outcome.ACCEPTED).count(),
                outcomes.stream().filter(o -> o != Outcome.ACCEPTED).findFirst().map(Outcome::toString).orElse(""));
        assertEquals(500, production.recorder().distinctTokens());
        assertEquals(500, production.recorder().deliveries());
    }

    @Test
    void environmentPicksTheHost() throws Exception {
        String key = p8();
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(tokenAuth(0, "KEY1234567", key), notification(SIMPLE), deliveries("tok-dev")));
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(tokenAuth(1, "KEY1234567", key), notification(SIMPLE), deliveries("tok-prod")));
        assertEquals(1, sandbox.recorder().deliveriesTo("tok-dev"));
        assertEquals(0, sandbox.recorder().deliveriesTo("tok-prod"));
        assertEquals(1, production.recorder().deliveriesTo("tok-prod"));
        assertEquals(0, production.recorder().deliveriesTo("tok-dev"));
    }

    @Test
    void certificateAuth() throws Exception {
        String p12 = p12("one");
        production.registerApp("TEAM123456.com.example.chat", "", "secret", p12);
        Credentials credentials = new Credentials("app1", Channel.APNS, 1, "ios-p12", "TEAM123456.com.example.chat",
                "", "secret", p12, VERSIONS.incrementAndGet());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("tok-c")));
        Recorder.Request request = lastPush(production);
        assertNull(request.headers().get("authorization"));
        assertEquals("com.example.chat", request.headers().get("apns-topic"));

        Credentials other = new Credentials("app2", Channel.APNS, 1, "ios-p12", "TEAM123456.com.example.chat", "",
                "secret", p12("two"), VERSIONS.incrementAndGet());
        Outcome refused = adapter.send(other, notification(SIMPLE), deliveries("tok-c2")).get(0);
        assertEquals(Outcome.Kind.RETRY, refused.kind());
        assertTrue(refused.reason().contains("BadCertificate"), refused.reason());

        Credentials wrongPassword = new Credentials("app3", Channel.APNS, 1, "ios-p12", "TEAM123456.com.example.chat",
                "", "nope", p12, VERSIONS.incrementAndGet());
        Outcome unusable = adapter.send(wrongPassword, notification(SIMPLE), deliveries("tok-c3")).get(0);
        assertEquals(Outcome.Kind.RETRY, unusable.kind());
        assertTrue(unusable.reason().startsWith("credentials"), unusable.reason());
    }

    @Test
    void newCredentialsVersionReplacesTheClient() throws Exception {
        String key = p8();
        production.registerApp("TEAM123456.com.example.chat", "KEY1234567", "", key);
        Credentials old = tokenAuth(1, "OLDKEY0000", p8());
        assertEquals(Outcome.Kind.RETRY, adapter.send(old, notification(SIMPLE), deliveries("tok-v")).get(0).kind());
        Credentials renewed = tokenAuth(1, "KEY1234567", key);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(renewed, notification(SIMPLE), deliveries("tok-v")));
        assertNotNull(lastPush(production));
        // a late batch with older (still valid) credentials is served by a temporary client, then the newest again
        Credentials older = new Credentials("app1", Channel.APNS, 1, "ios-cert", "TEAM123456.com.example.chat",
                "KEY1234567", "", key, 1);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(older, notification(SIMPLE), deliveries("tok-v2")));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(renewed, notification(SIMPLE), deliveries("tok-v3")));
    }

    /** A PKCS#12 with a self-signed client certificate, base64, password "secret" (made with keytool). */
    static String p12(String name) throws Exception {
        Path file = dir.resolve("client-" + name + ".p12");
        Files.deleteIfExists(file);
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=Apple Push Services: com.example.chat " + name, "-validity", "30",
                "-keystore", file.toString(), "-storetype", "PKCS12", "-storepass", "secret", "-keypass", "secret")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
        return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
    }
}
