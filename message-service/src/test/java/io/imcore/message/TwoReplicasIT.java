package io.imcore.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.context.AuthViewStore;
import io.imcore.testing.LiveClient;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.imcore.testing.TopicWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two processes of the packaged message-service on one PostgreSQL and one Kafka, as two Kubernetes replicas:
 * a message or a svcpush notification sent through one reaches a device connected to the other, a device that
 * reconnects to the other replica with its cursor in the middle of a burst gets every message once, de-duplication
 * holds across them, an app's quota is one for both, and the connections of a replica killed with SIGKILL stop
 * counting as online.
 */
class TwoReplicasIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<ServiceProcess> REPLICAS = new ArrayList<>();
    private static final String APP = "app" + UUID.randomUUID().toString().substring(0, 8);
    private static final long ALICE = 20_001;
    private static final long BOB = 20_002;
    private static final String PLATFORM_KEY = "it-platform-key";
    private static final String INTERNAL_KEY = "it-internal-key";

    @BeforeAll
    static void startTwoReplicas() throws Exception {
        for (String name : List.of("one", "two")) {
            REPLICAS.add(start(name));
        }
        try (Connection c = database()) {
            AuthViewStore.upsertApp(c, APP, 1);
            AuthViewStore.upsertUser(c, APP, ALICE, 1, false);
            AuthViewStore.upsertUser(c, APP, BOB, 1, false);
        }
    }

    @AfterAll
    static void stop() {
        REPLICAS.forEach(r -> r.process().destroyForcibly());
    }

    private static ServiceProcess start(String name) throws Exception {
        return ServiceProcess.start("replica-" + name, Map.of("im.message.replica-id", "replica_" + name,
                "im.message.presence-heartbeat", "1s", "im.message.presence-expiry", "4S",
                "im.platform-key", PLATFORM_KEY, "im.internal-key", INTERNAL_KEY,
                "im.webhooks.secret-key", "dGVzdC1vbmx5LXdlYmhvb2stc2VjcmV0LWtleS0zMmI="));
    }

    private static Connection database() throws Exception {
        Map<String, String> config = SharedInfrastructure.get().quarkusConfig();
        return DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.datasource.username"), config.getOrDefault("quarkus.datasource.password", ""));
    }

    private static String token(long user, int deviceSn) {
        JwtClaims claims = TestTokens.userClaims(APP, user, 1);
        claims.setClaim("dsn", deviceSn);
        return TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys());
    }

    private static JsonNode call(ServiceProcess replica, String method, String path, String token, String body)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.port() + path))
                .header("app_id", APP).header("access-token", token).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return JSON.readTree(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static String text(String content, long target, Long transactionId) {
        return "{\"content_type\":0,\"content\":\"" + content + "\",\"targets\":[" + target + "],\"type\":1"
                + (transactionId == null ? "" : ",\"transaction_id\":" + transactionId) + "}";
    }

    @Test
    void messageSentThroughOneReplicaReachesADeviceOnTheOther() throws Exception {
        ServiceProcess one = REPLICAS.get(0);
        ServiceProcess two = REPLICAS.get(1);
        try (LiveClient bobPhone = LiveClient.authenticated("127.0.0.1", two.port(), APP, token(BOB, 1), null)) {
            assertEquals(true, call(one, "GET", "/user/online_status", token(BOB, 1), null).path("data")
                    .path("online").asBoolean(), "presence is shared: replica one sees bob online on two");
            JsonNode sent = call(one, "POST", "/message/send", token(ALICE, 1), text("across replicas", BOB, null));
            assertEquals(200, sent.path("code").asInt(), sent.toString());
            JsonNode frame = bobPhone.next("message", Duration.ofSeconds(10));
            assertNotNull(frame, "bob's socket on replica two gets the message sent through replica one");
            assertEquals("across replicas", frame.path("message").path("content").asText());
            long msgId = frame.path("message").path("msg_id").asLong();
            bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + ALICE + ",\"msg_id\":" + msgId + "}");
            assertEquals(200, bobPhone.next("ack", Duration.ofSeconds(10)).path("code").asInt());
            JsonNode page = call(one, "GET", "/message/conversation?opposite_id=" + BOB, token(ALICE, 1), null);
            JsonNode messages = page.path("data").path("messages");
            assertEquals("DELIVERED", messages.get(messages.size() - 1).path("status").asText());
        }
    }

    @Test
    void aDeviceReconnectingToTheOtherReplicaInTheMiddleOfABurstMissesNothingAndGetsNothingTwice() throws Exception {
        ServiceProcess one = REPLICAS.get(0);
        ServiceProcess two = REPLICAS.get(1);
        int burst = 200;
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> received = new ArrayList<>();
        String cursor;
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try (LiveClient bobPhone = LiveClient.authenticated("127.0.0.1", two.port(), APP, token(BOB, 3), null)) {
            sender.submit(() -> {
                for (int i = 0; i < burst; i++) {
                    JsonNode sent = call(one, "POST", "/message/send", token(ALICE, 1), text(tag + "-" + i, BOB, null));
                    assertEquals(200, sent.path("code").asInt(), sent.toString());
                }
                return null;
            });
            JsonNode frame = null;
            while (received.size() < 20) {
                frame = bobPhone.next("message", Duration.ofSeconds(10));
                assertNotNull(frame, "live frame " + received.size() + " on replica two");
                received.add(frame.path("message").path("content").asText());
            }
            cursor = frame.path("cursor").asText();
        }
        try (LiveClient bobPhone = LiveClient.connect("127.0.0.1", one.port())) {
            bobPhone.send("{\"type\":\"auth\",\"app_id\":\"" + APP + "\",\"token\":\"" + token(BOB, 3)
                    + "\",\"cursor\":\"" + cursor + "\"}");
            assertEquals(200, bobPhone.next("auth", Duration.ofSeconds(10)).path("code").asInt());
            while (received.size() < burst) {
                JsonNode frame = bobPhone.next("message", Duration.ofSeconds(10));
                assertNotNull(frame, "frame " + received.size() + " after the reconnect to replica one");
                received.add(frame.path("message").path("content").asText());
            }
            sender.shutdown();
            assertTrue(sender.awaitTermination(60, TimeUnit.SECONDS));
            JsonNode marker = call(one, "POST", "/message/send", token(ALICE, 1), text(tag + "-end", BOB, null));
            assertEquals(200, marker.path("code").asInt());
            assertEquals(tag + "-end", bobPhone.next("message", Duration.ofSeconds(10)).path("message")
                    .path("content").asText(), "nothing doubled: the next frame after the burst is the marker");
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < burst; i++) {
            expected.add(tag + "-" + i);
        }
        assertEquals(expected, received, "every message of the burst once, in order, across the reconnect");
    }

    @Test
    void notificationThroughOneReplicaReachesADeviceOnTheOther() throws Exception {
        ServiceProcess one = REPLICAS.get(0);
        ServiceProcess two = REPLICAS.get(1);
        try (LiveClient bobTablet = LiveClient.authenticated("127.0.0.1", two.port(), APP, token(BOB, 5), null)) {
            String body = "{\"app_id\":\"" + APP + "\",\"task_id\":77,\"notification\":{\"type\":\"text\","
                    + "\"title\":\"Hello\",\"body\":\"across replicas\"},\"devices\":["
                    + "{\"user_id\":" + ALICE + ",\"device_sn\":9,\"badge\":null},"
                    + "{\"user_id\":" + BOB + ",\"device_sn\":5,\"badge\":2}]}";
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + one.port()
                    + "/internal/live/notify")).header("internal-key", INTERNAL_KEY)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
            JsonNode answer = JSON.readTree(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(200, answer.path("code").asInt(), answer.toString());
            assertEquals("[1]", answer.path("data").path("delivered").toString());
            assertEquals("[0]", answer.path("data").path("offline").toString());
            JsonNode frame = bobTablet.next("notification", Duration.ofSeconds(10));
            assertNotNull(frame, "bob's socket on replica two gets the notification handed to replica one");
            assertEquals(77, frame.path("task_id").asLong());
            assertEquals("across replicas", frame.path("notification").path("body").asText());
            assertEquals(2, frame.path("notification").path("badge").asInt());
            bobTablet.send("{\"type\":\"notification_ack\",\"task_id\":77}");
            assertEquals(200, bobTablet.next("notification_ack", Duration.ofSeconds(10)).path("code").asInt());
        }
    }

    /**
     * auth-service publishes a password change as the user's new token version: whichever replica's consumer applies
     * it, the user's sockets on both replicas close with 4403 (docs/live-protocol.md "When credentials die").
     */
    @Test
    void aPasswordChangeClosesTheUsersSocketsOnBothReplicas() throws Exception {
        long dave = 20_004;
        try (Connection c = database()) {
            AuthViewStore.upsertUser(c, APP, dave, 1, false);
        }
        try (LiveClient onOne = LiveClient.authenticated("127.0.0.1", REPLICAS.get(0).port(), APP, token(dave, 1), null);
                LiveClient onTwo = LiveClient.authenticated("127.0.0.1", REPLICAS.get(1).port(), APP, token(dave, 2),
                        null)) {
            long changed = System.nanoTime();
            TopicWriter.send("auth.events", APP + ":" + dave, "{\"v\":1,\"type\":\"user.changed\",\"app_id\":\""
                    + APP + "\",\"user_id\":" + dave + ",\"token_version\":2,\"disabled\":false,\"at\":1}");
            assertEquals(4403, onOne.closed.get(10, TimeUnit.SECONDS));
            assertEquals(4403, onTwo.closed.get(10, TimeUnit.SECONDS));
            System.out.printf("both replicas closed the sockets %d ms after the event was published%n",
                    (System.nanoTime() - changed) / 1_000_000);
        }
    }

    @Test
    void concurrentRepeatsOnBothReplicasExecuteOnce() throws Exception {
        long transactionId = System.nanoTime();
        int before = countMessages("once across replicas");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<JsonNode>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ServiceProcess replica = REPLICAS.get(i % 2);
            Callable<JsonNode> send = () -> {
                start.await();
                return call(replica, "POST", "/message/send", token(ALICE, 1),
                        text("once across replicas", BOB, transactionId));
            };
            answers.add(pool.submit(send));
        }
        start.countDown();
        for (Future<JsonNode> answer : answers) {
            JsonNode body = answer.get();
            assertEquals(200, body.path("code").asInt(), body.toString());
            assertEquals(true, body.path("data").asBoolean());
        }
        pool.shutdown();
        assertEquals(before + 1, countMessages("once across replicas"));
    }

    @Test
    void anAppsSendQuotaIsSharedByBothReplicas() throws Exception {
        // an app of its own: its quota must not hold back the other tests
        String app = "quota" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection c = database()) {
            AuthViewStore.upsertApp(c, app, 1);
            AuthViewStore.upsertUser(c, app, ALICE, 1, false);
            AuthViewStore.upsertUser(c, app, BOB, 1, false);
        }
        HttpRequest override = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + REPLICAS.get(0).port()
                + "/message/quota")).header("platform-key", PLATFORM_KEY).header("app_id", app)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"quota\":\"message-send\",\"limit\":1,\"period_seconds\":600,\"burst\":4}")).build();
        JsonNode set = JSON.readTree(HTTP.send(override, HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(200, set.path("code").asInt(), set.toString());
        String token = TestTokens.signRs256(TestTokens.userClaims(app, ALICE, 1), SharedInfrastructure.get().jwtKeys());
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            HttpRequest send = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + REPLICAS.get(i % 2).port()
                    + "/message/send")).header("app_id", app).header("access-token", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(text("quota " + i, BOB, null))).build();
            codes.add(JSON.readTree(HTTP.send(send, HttpResponse.BodyHandlers.ofString()).body()).path("code").asInt());
        }
        assertEquals(List.of(200, 200, 200, 200, 10015, 10015, 10015, 10015), codes,
                "4 at once for the app, whichever replica takes the call");
    }

    @Test
    void connectionsOfAKilledReplicaStopCountingAsOnline() throws Exception {
        ServiceProcess doomed = start("doomed");
        REPLICAS.add(doomed);
        ServiceProcess survivor = REPLICAS.get(0);
        LiveClient alicePhone = LiveClient.authenticated("127.0.0.1", doomed.port(), APP, token(ALICE, 7), null);
        assertTrue(call(survivor, "GET", "/user/online_status", token(ALICE, 7), null).path("data").path("online")
                .asBoolean());
        doomed.kill();
        alicePhone.close();
        long deadline = System.currentTimeMillis() + 30_000;
        boolean online = true;
        while (online && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            online = call(survivor, "GET", "/user/online_status", token(ALICE, 7), null).path("data").path("online")
                    .asBoolean();
        }
        assertTrue(!online, "the killed replica's connection no longer counts");
    }

    private static int countMessages(String content) throws Exception {
        try (Connection c = database(); PreparedStatement ps = c.prepareStatement(
                "select count(*) from messages where content = ?")) {
            ps.setString(1, content);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
