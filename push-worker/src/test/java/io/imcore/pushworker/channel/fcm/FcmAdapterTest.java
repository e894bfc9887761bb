package io.imcore.pushworker.channel.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.channel.ChannelSettings;
import io.imcore.pushworker.channel.Credentials;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.MessageShapes;
import io.imcore.pushworker.channel.Notification;
import io.imcore.pushworker.channel.Outcome;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.fcm.FcmSimulator;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cloud adapter against two in-JVM FCM simulators (one for each environment's base URL). */
class FcmAdapterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final AtomicLong VERSIONS = new AtomicLong(1);

    @TempDir
    static Path dir;

    static Vertx vertx;
    static FcmSimulator production;
    static FcmSimulator development;
    static ChannelSettings settings;
    static String account;

    FcmAdapter adapter;

    @BeforeAll
    static void startSimulators() throws Exception {
        vertx = Vertx.vertx();
        production = new FcmSimulator();
        development = new FcmSimulator();
        production.start(vertx, "127.0.0.1", 0, dir).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        development.start(vertx, "127.0.0.1", 0, dir).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        settings = new ChannelSettings(Channel.FCM, URI.create("http://127.0.0.1:" + production.port()),
                URI.create("http://127.0.0.1:" + development.port() + "/"),
                Optional.of(URI.create("http://127.0.0.1:" + production.port() + "/token")), Optional.empty(),
                Optional.empty(), Duration.ofSeconds(10), 64);
        account = serviceAccount("proj-1", "pusher@proj-1.iam.gserviceaccount.com");
    }

    @AfterAll
    static void stopSimulators() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void setUp() {
        production.reset();
        development.reset();
        adapter = new FcmAdapter(settings);
    }

    @AfterEach
    void tearDown() {
        adapter.close();
    }

    // ---- helpers

    static String serviceAccount(String projectId, String email) throws Exception {
        return serviceAccount(projectId, email, "https://oauth2.googleapis.com/token");
    }

    static String serviceAccount(String projectId, String email, String tokenUri) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        ObjectNode json = MAPPER.createObjectNode()
                .put("type", "service_account")
                .put("project_id", projectId)
                .put("private_key_id", "0123456789abcdef")
                .put("private_key", pem)
                .put("client_email", email)
                .put("client_id", "1234567890")
                .put("auth_uri", "https://accounts.google.com/o/oauth2/auth")
                .put("token_uri", tokenUri);
        return MAPPER.writeValueAsString(json);
    }

    static Credentials credentials(int environment, String json) {
        return new Credentials("app1", Channel.FCM, environment, "fcm", "", "", "", json,
                VERSIONS.incrementAndGet());
    }

    static Notification notification(String json) throws Exception {
        return new Notification(9L, "app1", (ObjectNode) MAPPER.readTree(json));
    }

    static List<Delivery> deliveries(String... tokens) {
        List<Delivery> out = new ArrayList<>();
        for (String token : tokens) {
            out.add(new Delivery(null, token, 2));
        }
        return out;
    }

    static List<Recorder.Request> sends(FcmSimulator simulator) {
        return simulator.recorder().requests().stream().filter(r -> r.path().endsWith("/messages:send")).toList();
    }

    static Recorder.Request lastSend(FcmSimulator simulator) {
        List<Recorder.Request> sends = sends(simulator);
        assertFalse(sends.isEmpty(), "no send recorded");
        return sends.get(sends.size() - 1);
    }

    static final String SIMPLE = "{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"Hello\",\"badge\":\"+1\",\"channels\":{}}";

    // ---- mapping

    @Test
    void notificationMapsEveryField() throws Exception {
        long end = System.currentTimeMillis() / 1000 + 3600;
        Notification n = notification("""
                {"type":"image","title":"Alice","body":"sent a photo","badge":"+1","big_text":"long long text",
                 "attachment_url":"https://img.example.com/a.jpg","show_end_time":%d,
                 "ext":{"conv":"c1","n":5,"obj":{"a":true},"from":"x","google.x":"y"},
                 "ios":{"sound":"ios.caf"},
                 "channels":{"cloud":{"sound":"ding","channel_id":"messages","click_action":"intent",
                                      "intent":"com.example.app/.Chat;S.id=42"},
                             "vendor_a":{"sound":"other"}}}""".formatted(end));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), n,
                List.of(new Delivery(null, "tok-map", 7))));

        Recorder.Request request = lastSend(production);
        assertEquals("POST", request.method());
        assertEquals("/v1/projects/proj-1/messages:send", request.path());
        assertTrue(request.headers().get("authorization").startsWith("Bearer ya29.sim-"));
        assertTrue(request.headers().get("content-type").startsWith("application/json"));
        JsonNode message = MAPPER.readTree(request.body()).get("message");
        assertEquals("tok-map", message.get("token").asText());
        assertEquals(MAPPER.readTree("""
                {"title":"Alice","body":"sent a photo","image":"https://img.example.com/a.jpg"}"""),
                message.get("notification"));
        JsonNode android = message.get("android");
        assertEquals(MAPPER.readTree("""
                {"sound":"ding","channel_id":"messages","click_action":"com.example.app/.Chat;S.id=42",
                 "notification_count":7}"""), android.get("notification"));
        long ttl = Long.parseLong(android.get("ttl").asText().replace("s", ""));
        assertTrue(ttl > 3500 && ttl <= 3600, "ttl " + ttl);
        assertEquals(MAPPER.readTree("{\"conv\":\"c1\",\"n\":\"5\",\"obj\":\"{\\\"a\\\":true}\"}"), message.get("data"),
                "ext values as strings, reserved keys dropped");
        assertFalse(request.body().contains("long long text"), "FCM has no big text field");
        assertFalse(request.body().contains("ios.caf"));
        assertEquals(1, production.recorder().deliveriesTo("tok-map"));
    }

    @Test
    void defaultsLeaveTheAndroidBlockOut() throws Exception {
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), notification(SIMPLE),
                List.of(new Delivery(null, "tok-min", null))));
        JsonNode message = MAPPER.readTree(lastSend(production).body()).get("message");
        assertEquals(MAPPER.readTree("{\"token\":\"tok-min\",\"notification\":{\"title\":\"Hi\",\"body\":\"Hello\"}}"),
                message);
    }

    @Test
    void collapseKeyIsTheCollapseKeyAndTheTag() throws Exception {
        Notification n = notification("""
                {"type":"text","title":"Alice","body":"hi","badge":"+1","channels":{},
                 "collapse_key":"c-3f9a1b2c","notify_id":77,"group":"grp-1"}""");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), n,
                List.of(new Delivery(null, "tok-ck", null))));
        JsonNode message = MAPPER.readTree(lastSend(production).body()).get("message");
        assertEquals(MAPPER.readTree("""
                {"token":"tok-ck","notification":{"title":"Alice","body":"hi"},
                 "android":{"notification":{"tag":"c-3f9a1b2c"},"collapse_key":"c-3f9a1b2c"}}"""), message,
                "notify_id and group have no FCM field");

        Notification cmd = notification("""
                {"type":"cmd","body":"sync","badge":"+1","channels":{},"collapse_key":"c-3f9a1b2c"}""");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), cmd, deliveries("tok-ck2")));
        JsonNode data = MAPPER.readTree(lastSend(production).body()).get("message");
        assertEquals(MAPPER.readTree("{\"collapse_key\":\"c-3f9a1b2c\"}"), data.get("android"),
                "a data message collapses too, with no notification tag: " + data);

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), notification(SIMPLE),
                List.of(new Delivery(null, "tok-ck3", null))));
        assertFalse(MAPPER.readTree(lastSend(production).body()).get("message").has("android"),
                "without collapse_key nothing is added");
    }

    @Test
    void openAppHasNoClickAction() throws Exception {
        Notification n = notification("""
                {"type":"text","title":"t","body":"b","badge":"+1",
                 "channels":{"cloud":{"click_action":"open_app"}}}""");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), n, deliveries("tok-o")));
        JsonNode message = MAPPER.readTree(lastSend(production).body()).get("message");
        assertFalse(message.path("android").path("notification").has("click_action"), message.toString());
    }

    @Test
    void cmdIsADataOnlyMessage() throws Exception {
        Notification n = notification("""
                {"type":"cmd","title":"sync","body":"inbox","badge":"+1","ext":{"op":"refresh","body":"mine"},
                 "channels":{"cloud":{"sound":"ding"}}}""");
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials(1, account), n, deliveries("tok-cmd")));
        JsonNode message = MAPPER.readTree(lastSend(production).body()).get("message");
        assertFalse(message.has("notification"));
        assertFalse(message.has("android"), "no notification settings for a data message: " + message);
        assertEquals(MAPPER.readTree("{\"op\":\"refresh\",\"body\":\"mine\",\"title\":\"sync\"}"), message.get("data"));
    }

    @Test
    void longTextsAreTruncatedUnderTheLimit() throws Exception {
        ObjectNode message = (ObjectNode) MAPPER.readTree(SIMPLE);
        String body = "\u00e9".repeat(4000); // 8000 bytes
        message.put("body", body).put("title", "T".repeat(256));
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials(1, account), new Notification(1L, "app1", message), deliveries("tok-l")));
        JsonNode sent = MAPPER.readTree(lastSend(production).body()).get("message");
        String sentBody = sent.at("/notification/body").asText();
        assertTrue(sentBody.endsWith("\u2026") && sentBody.length() < 2000 && sentBody.length() > 1500,
                "length " + sentBody.length());
        assertEquals(256, sent.at("/notification/title").asText().length());
    }

    // ---- auth

    @Test
    void accessTokenIsFetchedOnceAndReused() throws Exception {
        Credentials credentials = credentials(1, account);
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED),
                    adapter.send(credentials, notification(SIMPLE), deliveries("tok-a" + i, "tok-b" + i)));
        }
        assertEquals(1, production.issuedTokens());
        Recorder.Request token = production.recorder().requests().stream()
                .filter(r -> r.path().equals("/token")).findFirst().orElseThrow();
        String form = URLDecoder.decode(token.body(), StandardCharsets.UTF_8);
        assertTrue(form.contains("grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer"), form);
        assertTrue(form.contains("assertion="), form);
        assertEquals(1, sends(production).stream().map(r -> r.headers().get("authorization")).distinct().count());
    }

    @Test
    void registeredAccountVerifiesTheSignature() throws Exception {
        production.registerServiceAccount(account);
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials(1, account), notification(SIMPLE), deliveries("tok-r")));

        // same client_email, another key: the assertion's signature does not verify
        String forged = serviceAccount("proj-1", "pusher@proj-1.iam.gserviceaccount.com");
        List<Outcome> outcomes = adapter.send(
                new Credentials("app2", Channel.FCM, 1, "fcm", "", "", "", forged, VERSIONS.incrementAndGet()),
                notification(SIMPLE), deliveries("tok-f1", "tok-f2"));
        assertTrue(outcomes.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY && o.reason().startsWith("auth")),
                outcomes.toString());
        assertEquals(1, sends(production).size(), "nothing sent without a token");
    }

    @Test
    void authFaultRefreshesOnceAndRecovers() throws Exception {
        // the simulator's 401 to a presented token carries error="invalid_token" (RFC 6750 section 3.1), the answer
        // google-auth refreshes on: the adapter refreshes and repeats the request once, with the new token
        Credentials credentials = credentials(1, account);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("t0")));
        production.faults().inject(Faults.Kind.AUTH, 1);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("t1")));
        assertEquals(2, production.issuedTokens());
        assertEquals(1, production.recorder().deliveriesTo("t1"));
        List<Recorder.Request> sends = sends(production);
        assertEquals(3, sends.size(), "t0, t1 refused, t1 repeated once");
        assertEquals(sends.get(0).headers().get("authorization"), sends.get(1).headers().get("authorization"));
        assertFalse(sends.get(1).headers().get("authorization").equals(sends.get(2).headers().get("authorization")),
                "repeated with the refreshed token");
    }

    @Test
    void expiredTokensAreRefreshedOnceForAllRequests() throws Exception {
        Credentials credentials = credentials(1, account);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("t0")));
        production.revokeTokens();
        List<Delivery> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add(new Delivery(null, "exp-" + i, 1));
        }
        List<Outcome> outcomes = adapter.send(credentials, notification(SIMPLE), many);
        assertEquals(100, outcomes.stream().filter(o -> o == Outcome.ACCEPTED).count(), outcomes.toString());
        assertEquals(2, production.issuedTokens(), "one refresh for all the refused requests");
        assertEquals(1 + 2 * 100, sends(production).size(), "each refused request repeated exactly once");
    }

    @Test
    void noRequestIsADryRun() throws Exception {
        // FCM answers a validate_only request 200 and delivers nothing: the adapter must never send one, or an
        // ACCEPTED would hide a message nobody got
        Credentials credentials = credentials(1, account);
        Notification cmd = notification("""
                {"type":"cmd","body":"sync","badge":"+1","channels":{},"collapse_key":"c-1"}""");
        assertEquals(List.of(Outcome.ACCEPTED, Outcome.ACCEPTED, Outcome.ACCEPTED),
                adapter.send(credentials, notification(SIMPLE), deliveries("dr-1", "dr-2", "dr-3")));
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, cmd, deliveries("dr-4")));
        for (Recorder.Request send : sends(production)) {
            JsonNode body = MAPPER.readTree(send.body());
            List<String> members = new ArrayList<>();
            body.fieldNames().forEachRemaining(members::add);
            assertEquals(List.of("message"), members, send.body());
        }
        assertEquals(4, production.recorder().deliveries(), "every ACCEPTED is a delivery");
    }

    /** An HTTP server that answers every request with an access token and counts the requests. */
    static HttpServer tokenServer(AtomicInteger requests) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            byte[] body = "{\"access_token\":\"stolen\",\"expires_in\":3600,\"token_type\":\"Bearer\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("content-type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void theTokenComesFromTheConfiguredEndpointNotTheJsonsTokenUri() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer foreign = tokenServer(requests);
        try {
            String json = serviceAccount("proj-1", "pusher@proj-1.iam.gserviceaccount.com",
                    "http://127.0.0.1:" + foreign.getAddress().getPort() + "/token");
            assertEquals(List.of(Outcome.ACCEPTED),
                    adapter.send(credentials(1, json), notification(SIMPLE), deliveries("t-configured")));
            assertEquals(0, requests.get(), "the JSON's token_uri was asked");
        } finally {
            foreign.stop(0);
        }
    }

    @Test
    void withoutAConfiguredTokenEndpointNoTokenIsAskedForAnywhere() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer foreign = tokenServer(requests);
        ChannelSettings noAuthUrl = new ChannelSettings(Channel.FCM, settings.baseUrl(), settings.baseUrl(),
                Optional.empty(), Optional.empty(), Optional.empty(), Duration.ofSeconds(10), 64);
        try (FcmAdapter unconfigured = new FcmAdapter(noAuthUrl)) {
            String json = serviceAccount("proj-1", "pusher@proj-1.iam.gserviceaccount.com",
                    "http://127.0.0.1:" + foreign.getAddress().getPort() + "/token");
            Outcome outcome = unconfigured.send(credentials(1, json), notification(SIMPLE), deliveries("t-none"))
                    .get(0);
            assertEquals(Outcome.Kind.RETRY, outcome.kind());
            assertTrue(outcome.reason().contains("auth-url is not set"), outcome.reason());
            assertEquals(0, requests.get(), "the JSON's token_uri was asked");
            assertTrue(sends(production).isEmpty(), "nothing is sent without an access token");
        } finally {
            foreign.stop(0);
        }
    }

    @Test
    void persistentAuthFailureIsARetry() throws Exception {
        Credentials credentials = credentials(1, account);
        production.faults().inject(Faults.Kind.AUTH, 2);
        Outcome outcome = adapter.send(credentials, notification(SIMPLE), deliveries("t-auth")).get(0);
        assertEquals(Outcome.Kind.RETRY, outcome.kind());
        assertTrue(outcome.reason().contains("UNAUTHENTICATED"), outcome.reason());
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("t-auth")));
    }

    // ---- outcomes

    @Test
    void aNotFoundWithoutUnregisteredFailsAndUnbindsNothing() throws Exception {
        ChannelSettings wrongPath = new ChannelSettings(Channel.FCM,
                URI.create("http://127.0.0.1:" + production.port() + "/not-fcm"), settings.baseUrl(0),
                settings.authUrl(), Optional.empty(), Optional.empty(), Duration.ofSeconds(10), 64);
        FcmAdapter misconfigured = new FcmAdapter(wrongPath);
        try {
            List<Outcome> outcomes = misconfigured.send(credentials(1, account), notification(SIMPLE),
                    deliveries("tok-1", "tok-2"));
            assertTrue(outcomes.stream().allMatch(o -> o.kind() == Outcome.Kind.FAILED
                    && o.reason().startsWith("not found")), outcomes.toString());
        } finally {
            misconfigured.close();
        }
    }

    @Test
    void everyMessageShapeIsAcceptedOrFailsAtOnce() {
        MessageShapes.assertEveryShapeAcceptedOrFailedAsDocumented(
                MessageShapes.sender(adapter, credentials(1, account), "tok-shape"), Map.of());
    }

    @Test
    void errorClasses() throws Exception {
        Credentials credentials = credentials(1, account);
        List<Outcome> outcomes = adapter.send(credentials, notification(SIMPLE),
                deliveries("tok-ok", "invalid-1", FcmSimulator.MALFORMED_PREFIX + "-2", "flaky-1"));
        assertEquals(Outcome.ACCEPTED, outcomes.get(0));
        assertEquals(Outcome.Kind.REJECTED, outcomes.get(1).kind());
        assertTrue(outcomes.get(1).reason().startsWith("UNREGISTERED"), outcomes.get(1).reason());
        assertEquals(Outcome.Kind.REJECTED, outcomes.get(2).kind());
        assertTrue(outcomes.get(2).reason().startsWith("INVALID_ARGUMENT"), outcomes.get(2).reason());
        assertEquals(Outcome.Kind.RETRY, outcomes.get(3).kind());
        assertTrue(outcomes.get(3).reason().startsWith("UNAVAILABLE"), outcomes.get(3).reason());

        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE),
                deliveries("flaky-1")));
        assertEquals(1, production.recorder().deliveriesTo("flaky-1"));
        assertEquals(0, production.recorder().deliveriesTo("invalid-1"));
    }

    @Test
    void transientFaultsAreRetriesWithRetryAfter() throws Exception {
        Credentials credentials = credentials(1, account);
        production.faults().inject(Faults.Kind.TRANSIENT, 2);
        Outcome first = adapter.send(credentials, notification(SIMPLE), deliveries("tok-t")).get(0);
        Outcome second = adapter.send(credentials, notification(SIMPLE), deliveries("tok-t")).get(0);
        assertEquals(Outcome.retry("UNAVAILABLE (The service is currently unavailable.)", Duration.ofSeconds(1)),
                first);
        assertEquals(Outcome.retry("QUOTA_EXCEEDED (Quota exceeded.)", Duration.ofSeconds(1)), second);
        assertEquals(List.of(Outcome.ACCEPTED), adapter.send(credentials, notification(SIMPLE), deliveries("tok-t")));
    }

    @Test
    void everyErrorAnswersBodyIsRead() throws Exception {
        // Google's error body names the reason (UNREGISTERED unbinds a token): a fast answer must not lose it. The
        // requests were once composed on the sender's thread, and a body that arrived before body() was asked for
        // came out empty ("HTTP 429" instead of QUOTA_EXCEEDED). One request at a time on a warm connection, as
        // in a retry, is where the answer came that fast.
        Credentials credentials = credentials(1, account);
        List<String> unread = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            production.faults().inject(Faults.Kind.TRANSIENT, 1);
            String reason = adapter.send(credentials, notification(SIMPLE), deliveries("tok-body")).get(0).reason();
            if (!reason.startsWith("UNAVAILABLE (") && !reason.startsWith("QUOTA_EXCEEDED (")) {
                unread.add(reason);
            }
        }
        assertEquals(List.of(), unread, "reasons without the error body's code");
    }

    @Test
    void wrongProjectIsACredentialsRetry() throws Exception {
        production.registerServiceAccount(account);
        String other = serviceAccount("proj-2", "other@proj-2.iam.gserviceaccount.com");
        production.registerServiceAccount(other);
        // a JSON whose project_id is not the account's own project
        ObjectNode mixed = (ObjectNode) MAPPER.readTree(other);
        mixed.put("project_id", "proj-1");
        Outcome outcome = adapter.send(credentials(1, MAPPER.writeValueAsString(mixed)), notification(SIMPLE),
                deliveries("tok-p")).get(0);
        assertEquals(Outcome.Kind.RETRY, outcome.kind());
        assertTrue(outcome.reason().contains("PERMISSION_DENIED"), outcome.reason());
    }

    @Test
    void unusableServiceAccountIsARetry() throws Exception {
        List<Outcome> outcomes = adapter.send(credentials(1, "{\"project_id\":\"p\"}"), notification(SIMPLE),
                deliveries("a", "b"));
        assertTrue(outcomes.stream().allMatch(o -> o.kind() == Outcome.Kind.RETRY
                && o.reason().startsWith("credentials")), outcomes.toString());
        assertEquals(0, production.recorder().requestCount());
    }

    @Test
    void fiveHundredTokensInOneCall() throws Exception {
        List<Delivery> many = new ArrayList<>();
        for (int i = 0; i < adapter.maxTargetsPerRequest(); i++) {
            many.add(new Delivery(null, "tok-" + i, i));
        }
        List<Outcome> outcomes = adapter.send(credentials(1, account), notification(SIMPLE), many);
        assertEquals(500, outcomes.stream().filter(o -> o == Outcome.ACCEPTED).count(),
                outcomes.stream().filter(o -> o != Outcome.ACCEPTED).findFirst().map(Outcome::toString).orElse(""));
        assertEquals(500, production.recorder().distinctTokens());
        assertEquals(500, production.recorder().deliveries());
    }

    @Test
    void environmentPicksTheBaseUrl() throws Exception {
        // each simulator only knows the access tokens it issued: environment 0's adapter gets them from development
        ChannelSettings developmentAuth = new ChannelSettings(Channel.FCM, settings.baseUrl(),
                settings.developmentBaseUrl(),
                Optional.of(URI.create("http://127.0.0.1:" + development.port() + "/token")), Optional.empty(),
                Optional.empty(), Duration.ofSeconds(10), 64);
        try (FcmAdapter other = new FcmAdapter(developmentAuth)) {
            assertEquals(List.of(Outcome.ACCEPTED),
                    other.send(credentials(0, account), notification(SIMPLE), deliveries("tok-dev")));
        }
        assertEquals(List.of(Outcome.ACCEPTED),
                adapter.send(credentials(1, account), notification(SIMPLE), deliveries("tok-prod")));
        assertEquals(1, development.recorder().deliveriesTo("tok-dev"));
        assertEquals(0, development.recorder().deliveriesTo("tok-prod"));
        assertEquals(1, production.recorder().deliveriesTo("tok-prod"));
        assertEquals(0, production.recorder().deliveriesTo("tok-dev"));
    }
}
