package io.imcore.pushworker.channel.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.firebase.ErrorCode;
import com.google.firebase.FirebaseApp;
import com.google.firebase.FirebaseOptions;
import com.google.firebase.messaging.AndroidConfig;
import com.google.firebase.messaging.BatchResponse;
import com.google.firebase.messaging.FirebaseMessaging;
import com.google.firebase.messaging.FirebaseMessagingException;
import com.google.firebase.messaging.Message;
import com.google.firebase.messaging.MessagingErrorCode;
import com.google.firebase.messaging.Notification;
import com.google.firebase.messaging.SendResponse;
import io.imcore.simulators.Faults;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.fcm.FcmSimulator;
import io.vertx.core.Vertx;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Google's Firebase Admin SDK (com.google.firebase:firebase-admin, version pinned in push-worker/pom.xml) against
 * our cloud simulator: the simulator must answer the SDK's requests as FCM would, so that the SDK reaches the same
 * result it reaches against Google (docs/channels/fcm.md, "The simulator").
 *
 * <p>The SDK's FCM URL is a constant ({@code https://fcm.googleapis.com/v1/projects/<p>/messages:send}), so the
 * FirebaseApp gets a google-http-client {@link NetHttpTransport} whose connections for fcm.googleapis.com go to the
 * simulator's port over plain HTTP; every other host is refused, so nothing can reach Google. The service account's
 * {@code token_uri} is the simulator's token endpoint, where the account is registered (signatures checked).
 */
class FirebaseAdminSdkTest {

    static final String PROJECT = "proj-sdk";
    static final String EMAIL = "firebase-adminsdk@proj-sdk.iam.gserviceaccount.com";
    static final String FCM_HOST = "fcm.googleapis.com";
    static final String SEND_PATH = "/v1/projects/" + PROJECT + "/messages:send";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    static Path workDir;

    static Vertx vertx;
    static FcmSimulator simulator;
    static String serviceAccount;
    static HttpTransport transport;

    FirebaseApp app;
    FirebaseMessaging messaging;

    @BeforeAll
    static void startTheSimulator() throws Exception {
        vertx = Vertx.vertx();
        simulator = new FcmSimulator();
        int port = simulator.start(vertx, "127.0.0.1", 0, workDir).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        ObjectNode json = (ObjectNode) MAPPER.readTree(FcmAdapterTest.serviceAccount(PROJECT, EMAIL));
        json.put("token_uri", "http://127.0.0.1:" + port + "/token");
        serviceAccount = MAPPER.writeValueAsString(json);
        transport = new NetHttpTransport.Builder().setConnectionFactory(url -> {
            URL target;
            if (FCM_HOST.equals(url.getHost())) {
                target = new URL("http", "127.0.0.1", port, url.getFile());
            } else if ("127.0.0.1".equals(url.getHost()) && url.getPort() == port) {
                target = url; // the token endpoint
            } else {
                throw new IOException("this test reaches only the simulator, not " + url);
            }
            return (HttpURLConnection) target.openConnection(Proxy.NO_PROXY);
        }).build();
    }

    @AfterAll
    static void stopTheSimulator() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** A fresh simulator state and a fresh FirebaseApp (no access token yet) for each test. */
    @BeforeEach
    void appWithTheServiceAccount() throws Exception {
        simulator.reset();
        simulator.registerServiceAccount(serviceAccount);
        GoogleCredentials credentials = GoogleCredentials.fromStream(
                new ByteArrayInputStream(serviceAccount.getBytes(StandardCharsets.UTF_8)), () -> transport);
        app = FirebaseApp.initializeApp(FirebaseOptions.builder()
                .setCredentials(credentials)
                .setProjectId(PROJECT)
                .setHttpTransport(transport)
                .build(), "fcm-sdk-" + UUID.randomUUID());
        messaging = FirebaseMessaging.getInstance(app);
    }

    @AfterEach
    void deleteTheApp() {
        app.delete();
    }

    @Test
    void aHighPriorityNotificationIsAccepted() throws Exception {
        Message message = Message.builder()
                .setToken("sdk-live-1")
                .setNotification(Notification.builder().setTitle("Alice").setBody("hi from the SDK").build())
                .setAndroidConfig(AndroidConfig.builder()
                        .setPriority(AndroidConfig.Priority.HIGH)
                        .setTtl(3_600_000)
                        .setCollapseKey("c-1")
                        .build())
                .putData("msg_id", "4242")
                .build();

        String name = messaging.send(message);

        assertTrue(name.startsWith("projects/" + PROJECT + "/messages/0:"), name);
        assertEquals(1, simulator.recorder().deliveriesTo("sdk-live-1"));
        Recorder.Request request = theOnlySend();
        assertTrue(request.headers().getOrDefault("x-firebase-client", "").startsWith("fire-admin-java/"),
                "sent by the Admin SDK: " + request.headers());
        JsonNode android = MAPPER.readTree(request.body()).path("message").path("android");
        assertEquals("high", android.path("priority").asText(), "the SDK writes the priority in lower case");
        assertEquals("3600s", android.path("ttl").asText());
        assertEquals(1, simulator.recorder().received(0).size(), "noted as received (msg_id 4242)");
    }

    @Test
    void sendEachReportsEveryTokensOwnOutcome() throws Exception {
        String malformed = FcmSimulator.MALFORMED_PREFIX + "-sdk";
        BatchResponse batch = messaging.sendEach(List.of(notification("sdk-live-2"), notification("invalid-sdk"),
                notification(malformed)));

        assertEquals(1, batch.getSuccessCount());
        assertEquals(2, batch.getFailureCount());
        List<SendResponse> responses = batch.getResponses();
        assertTrue(responses.get(0).isSuccessful(), String.valueOf(responses.get(0).getException()));
        assertTrue(responses.get(0).getMessageId().startsWith("projects/" + PROJECT + "/messages/0:"));
        FirebaseMessagingException unregistered = responses.get(1).getException();
        assertEquals(MessagingErrorCode.UNREGISTERED, unregistered.getMessagingErrorCode());
        assertEquals(ErrorCode.NOT_FOUND, unregistered.getErrorCode());
        FirebaseMessagingException invalid = responses.get(2).getException();
        assertEquals(MessagingErrorCode.INVALID_ARGUMENT, invalid.getMessagingErrorCode());
        assertEquals("The registration token is not a valid FCM registration token", invalid.getMessage());
        assertEquals(1, simulator.recorder().deliveriesTo("sdk-live-2"));
        assertEquals(0, simulator.recorder().deliveriesTo("invalid-sdk"));
        assertEquals(0, simulator.recorder().deliveriesTo(malformed));
        assertEquals(1, simulator.recorder().deliveries());
        assertEquals(3, sends().size());
    }

    @Test
    void aDryRunIsValidatedAndDeliversNothing() throws Exception {
        Message message = Message.builder().setToken("sdk-dry")
                .setNotification(Notification.builder().setTitle("t").setBody("dry").build())
                .putData("msg_id", "4343").build();

        String name = messaging.send(message, true);

        assertEquals("projects/" + PROJECT + "/messages/" + FcmSimulator.DRY_RUN_MESSAGE_ID, name);
        assertTrue(MAPPER.readTree(theOnlySend().body()).path("validate_only").asBoolean(),
                "the SDK asked for a dry run");
        BatchResponse batch = messaging.sendEach(List.of(notification("sdk-dry"), notification("invalid-dry")), true);
        assertEquals(1, batch.getSuccessCount());
        assertEquals(MessagingErrorCode.UNREGISTERED,
                batch.getResponses().get(1).getException().getMessagingErrorCode(), "a dry run checks the token");

        assertEquals(0, simulator.recorder().deliveries(), "no delivery recorded for a dry run");
        assertEquals(0, simulator.recorder().deliveriesTo("sdk-dry"));
        assertEquals(List.of(), simulator.recorder().received(0), "no message noted as received");
        assertEquals(3, sends().size());
    }

    @Test
    void aSpentQuotaIsQuotaExceededWithItsRetryAfter() throws Exception {
        simulator.faults().inject(Faults.Kind.QUOTA_SPENT, 1);

        FirebaseMessagingException e = assertThrows(FirebaseMessagingException.class,
                () -> messaging.send(notification("sdk-quota")));

        assertEquals(MessagingErrorCode.QUOTA_EXCEEDED, e.getMessagingErrorCode());
        assertEquals(ErrorCode.RESOURCE_EXHAUSTED, e.getErrorCode());
        assertEquals(429, e.getHttpResponse().getStatusCode());
        assertEquals("3600", header(e.getHttpResponse().getHeaders(), "retry-after"),
                "Retry-After as the SDK sees it: " + e.getHttpResponse().getHeaders());
        assertEquals(1, sends().size(), "the SDK does not retry a 429 on its own");
        assertEquals(0, simulator.recorder().deliveries());

        assertTrue(messaging.send(notification("sdk-quota")).startsWith("projects/" + PROJECT + "/messages/0:"));
        assertEquals(1, simulator.recorder().deliveriesTo("sdk-quota"));
    }

    @Test
    void aTransient503IsRetriedByTheSdk() throws Exception {
        simulator.faults().inject(Faults.Kind.TRANSIENT, 1); // the first transient fault is 503, Retry-After: 1
        long start = System.nanoTime();

        String name = messaging.send(notification("sdk-503"));

        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(name.startsWith("projects/" + PROJECT + "/messages/0:"), name);
        assertEquals(2, sends().size(), "the 503, then the SDK's own retry");
        assertEquals(1, simulator.recorder().deliveriesTo("sdk-503"));
        assertTrue(elapsedMillis >= 900, "the retry waited for Retry-After: 1, took " + elapsedMillis + " ms");
    }

    @Test
    void aRevokedAccessTokenIsRefreshedOnceAndTheSendSucceeds() throws Exception {
        messaging.send(notification("sdk-before"));
        assertEquals(1, simulator.issuedTokens());
        simulator.revokeTokens();

        String name = messaging.send(notification("sdk-after"));

        assertTrue(name.startsWith("projects/" + PROJECT + "/messages/0:"), name);
        assertEquals(2, simulator.issuedTokens(), "one refresh");
        List<Recorder.Request> sends = sends();
        assertEquals(3, sends.size(), "the first send, the refused one and its repeat");
        assertEquals(sends.get(0).headers().get("authorization"), sends.get(1).headers().get("authorization"));
        assertNotEquals(sends.get(1).headers().get("authorization"), sends.get(2).headers().get("authorization"),
                "repeated with the new token");
        assertEquals(1, simulator.recorder().deliveriesTo("sdk-after"));
    }

    @Test
    void theGrantIsSignedForGooglesTokenUriNotTheTokenUriItIsPostedTo() throws Exception {
        messaging.send(notification("sdk-aud"));

        List<Recorder.Request> tokenRequests = simulator.recorder().requests().stream()
                .filter(r -> r.path().equals("/token")).toList();
        assertEquals(1, tokenRequests.size());
        String form = URLDecoder.decode(tokenRequests.get(0).body(), StandardCharsets.UTF_8);
        String assertion = form.substring(form.indexOf("assertion=") + "assertion=".length()).split("&")[0];
        JsonNode claims = MAPPER.readTree(Base64.getUrlDecoder().decode(assertion.split("\\.")[1]));
        assertEquals(FcmSimulator.GOOGLE_TOKEN_AUDIENCE, claims.path("aud").asText(),
                "google-auth's audience, whatever token_uri says");
        assertEquals(EMAIL, claims.path("iss").asText());
        assertFalse(serviceAccount.contains(FcmSimulator.GOOGLE_TOKEN_AUDIENCE), "token_uri is the simulator's");
    }

    // ---- helpers

    static Message notification(String token) {
        return Message.builder().setToken(token)
                .setNotification(Notification.builder().setTitle("t").setBody("b").build()).build();
    }

    static List<Recorder.Request> sends() {
        return simulator.recorder().requests().stream().filter(r -> r.path().equals(SEND_PATH)).toList();
    }

    static Recorder.Request theOnlySend() {
        List<Recorder.Request> sends = sends();
        assertEquals(1, sends.size());
        return sends.get(0);
    }

    /** A header of the SDK's response map (names in any case, values a string or a list of strings). */
    static String header(Map<String, Object> headers, String name) {
        for (Map.Entry<String, Object> entry : headers.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(name)) {
                Object value = entry.getValue();
                return value instanceof List<?> list ? (list.isEmpty() ? null : String.valueOf(list.get(0)))
                        : String.valueOf(value);
            }
        }
        return fail("no header " + name + " in " + headers);
    }
}
