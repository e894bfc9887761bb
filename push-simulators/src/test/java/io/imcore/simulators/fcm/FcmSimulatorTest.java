package io.imcore.simulators.fcm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.simulators.Faults;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cloud simulator's answers where Google's own clients depend on them (docs/channels/fcm.md, "The
 * simulator"): the priority values FCM accepts, the 401 challenge google-auth refreshes on, dry runs, the details of
 * a refused field and the audience of the jwt-bearer grant. FirebaseAdminSdkTest (push-worker) drives the same
 * answers through the Firebase Admin SDK.
 */
class FcmSimulatorTest {

    static final String EMAIL = "sim-test@proj-sim.iam.gserviceaccount.com";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path workDir;

    static Vertx vertx;
    static FcmSimulator simulator;
    static KeyPair key;
    static String base;
    String accessToken;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        simulator = new FcmSimulator();
        simulator.start(vertx, "127.0.0.1", 0, workDir).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + simulator.port();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        key = generator.generateKeyPair();
    }

    @AfterAll
    static void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void registerAndGetAToken() throws Exception {
        simulator.reset();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getPrivate()
                .getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        simulator.registerServiceAccount(new JsonObject().put("type", "service_account").put("project_id", "proj-sim")
                .put("private_key", pem).put("client_email", EMAIL).encode());
        HttpResponse<String> token = token(FcmSimulator.GOOGLE_TOKEN_AUDIENCE);
        assertEquals(200, token.statusCode(), token.body());
        accessToken = new JsonObject(token.body()).getString("access_token");
    }

    // ---- priority

    @Test
    void thePriorityTakesTheEnumNamesAndTheirLowerCase() throws Exception {
        for (Object priority : List.of("high", "normal", "HIGH", "NORMAL", 1, 0)) {
            HttpResponse<String> answer = send(message("tok-p").put("android",
                    new JsonObject().put("priority", priority)), accessToken);
            assertEquals(200, answer.statusCode(), priority + ": " + answer.body());
        }
        for (Object priority : List.of("urgent", "10", 2, true)) {
            HttpResponse<String> answer = send(message("tok-p").put("android",
                    new JsonObject().put("priority", priority)), accessToken);
            assertEquals(400, answer.statusCode(), String.valueOf(priority));
            assertEquals(List.of("type.googleapis.com/google.rpc.BadRequest"), detailTypes(answer), answer.body());
            assertEquals("message.android.priority", field(answer));
        }
        assertEquals(6, simulator.recorder().deliveriesTo("tok-p"));
    }

    // ---- 401

    @Test
    void aRefusedTokenIsAnInvalidTokenChallenge() throws Exception {
        HttpResponse<String> unknown = send(message("tok-a"), "ya29.not-issued-here");
        assertEquals(401, unknown.statusCode());
        assertEquals("Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\"",
                unknown.headers().firstValue("www-authenticate").orElse(null));
        assertEquals("UNAUTHENTICATED", new JsonObject(unknown.body()).getJsonObject("error").getString("status"));

        simulator.revokeTokens();
        HttpResponse<String> revoked = send(message("tok-a"), accessToken);
        assertEquals(401, revoked.statusCode());
        assertTrue(revoked.headers().firstValue("www-authenticate").orElse("").endsWith("error=\"invalid_token\""));

        HttpResponse<String> none = send(message("tok-a"), null);
        assertEquals(401, none.statusCode());
        assertEquals("Bearer realm=\"https://accounts.google.com/\"",
                none.headers().firstValue("www-authenticate").orElse(null),
                "no credentials at all: no error code (RFC 6750 section 3.1)");
        assertEquals(0, simulator.recorder().deliveries());
    }

    @Test
    void anAuthFaultRevokesThePresentedToken() throws Exception {
        simulator.faults().inject(Faults.Kind.AUTH, 1);
        HttpResponse<String> answer = send(message("tok-f"), accessToken);
        assertEquals(401, answer.statusCode());
        assertTrue(answer.headers().firstValue("www-authenticate").orElse("").endsWith("error=\"invalid_token\""));
        assertEquals(401, send(message("tok-f"), accessToken).statusCode(), "the token stays revoked");
    }

    // ---- validate_only

    @Test
    void aDryRunValidatesAndDeliversNothing() throws Exception {
        JsonObject dry = message("tok-dry").put("data", new JsonObject().put("msg_id", "77"));
        HttpResponse<String> answer = send(new JsonObject().put("validate_only", true).put("message", dry),
                accessToken);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("projects/proj-sim/messages/" + FcmSimulator.DRY_RUN_MESSAGE_ID,
                new JsonObject(answer.body()).getString("name"));
        HttpResponse<String> camel = send(new JsonObject().put("validateOnly", true).put("message", dry),
                accessToken);
        assertEquals(200, camel.statusCode(), camel.body());

        assertEquals(0, simulator.recorder().deliveries());
        assertEquals(0, simulator.recorder().deliveriesTo("tok-dry"));
        JsonObject stats = get("/_sim/stats");
        assertEquals(0, stats.getInteger("deliveries"), stats.encode());
        assertEquals(3, stats.getInteger("requests"), "the token request and two dry runs: " + stats.encode());
        assertEquals(0, get("/_sim/received?since=0").getJsonArray("messages").size());

        HttpResponse<String> dead = send(new JsonObject().put("validate_only", true)
                .put("message", message("invalid-dry")), accessToken);
        assertEquals(404, dead.statusCode(), "a dry run checks the token too");
        assertEquals("UNREGISTERED", fcmErrorCode(dead));
        HttpResponse<String> refused = send(new JsonObject().put("validate_only", true)
                .put("message", message("tok-dry").put("data", new JsonObject().put("from", "x"))), accessToken);
        assertEquals(400, refused.statusCode(), "a dry run checks the message");

        HttpResponse<String> notABoolean = send(new JsonObject().put("validate_only", "yes")
                .put("message", message("tok-dry")), accessToken);
        assertEquals(400, notABoolean.statusCode());
        assertEquals("validate_only", field(notABoolean));

        assertEquals(200, send(new JsonObject().put("validate_only", false).put("message", dry), accessToken)
                .statusCode());
        assertEquals(1, simulator.recorder().deliveriesTo("tok-dry"));
        assertEquals(1, get("/_sim/received?since=0").getJsonArray("messages").size());
    }

    // ---- field errors

    @Test
    void fcmsOwnChecksCarryTheFcmErrorBesideTheBadRequest() throws Exception {
        List<String> both = List.of("type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "type.googleapis.com/google.rpc.BadRequest");
        HttpResponse<String> reserved = send(message("tok-e").put("data", new JsonObject().put("from", "x")),
                accessToken);
        assertEquals(400, reserved.statusCode());
        assertEquals(both, detailTypes(reserved), reserved.body());
        assertEquals("INVALID_ARGUMENT", fcmErrorCode(reserved));
        assertEquals("message.data", field(reserved));

        HttpResponse<String> big = send(message("tok-e").put("notification",
                new JsonObject().put("body", "x".repeat(FcmSimulator.MAX_PAYLOAD))), accessToken);
        assertEquals(both, detailTypes(big), big.body());
        assertEquals("message", field(big));

        HttpResponse<String> longTtl = send(message("tok-e").put("android", new JsonObject()
                .put("ttl", (FcmSimulator.MAX_TTL_SECONDS + 1) + "s")), accessToken);
        assertEquals(both, detailTypes(longTtl), longTtl.body());
        assertEquals("message.android.ttl", field(longTtl));
        assertEquals(200, send(message("tok-e").put("android", new JsonObject()
                .put("ttl", FcmSimulator.MAX_TTL_SECONDS + "s")), accessToken).statusCode(), "4 weeks is allowed");

        HttpResponse<String> malformed = send(message(FcmSimulator.MALFORMED_PREFIX + "-e"), accessToken);
        assertEquals(400, malformed.statusCode());
        assertEquals(both, detailTypes(malformed), malformed.body());
        assertEquals("message.token", field(malformed));
        assertEquals("The registration token is not a valid FCM registration token",
                new JsonObject(malformed.body()).getJsonObject("error").getString("message"));
    }

    @Test
    void aValueOfTheWrongTypeCarriesTheBadRequestAlone() throws Exception {
        HttpResponse<String> number = send(message("tok-t").put("data", new JsonObject().put("n", 12)), accessToken);
        assertEquals(400, number.statusCode());
        assertEquals(List.of("type.googleapis.com/google.rpc.BadRequest"), detailTypes(number), number.body());
        assertEquals("message.data[0].value", field(number));
        assertEquals("Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
                new JsonObject(number.body()).getJsonObject("error").getString("message"));

        HttpResponse<String> ttl = send(message("tok-t").put("android", new JsonObject().put("ttl", "ten")),
                accessToken);
        assertEquals(List.of("type.googleapis.com/google.rpc.BadRequest"), detailTypes(ttl), ttl.body());
        assertEquals(0, simulator.recorder().deliveries());
    }

    // ---- token endpoint

    @Test
    void theGrantMayBeSignedForGooglesTokenUriOrThisEndpoint() throws Exception {
        assertEquals(200, token(FcmSimulator.GOOGLE_TOKEN_AUDIENCE).statusCode());
        assertEquals(200, token(base + "/token").statusCode());
        assertEquals(200, token("http://fcm-simulator:8080/token").statusCode(), "the host is not compared");
        for (String aud : List.of("https://oauth2.googleapis.com/revoke", base + "/elsewhere",
                "https://accounts.google.com/o/oauth2/auth", "urn:not-a-url")) {
            HttpResponse<String> refused = token(aud);
            assertEquals(400, refused.statusCode(), aud);
            assertEquals("invalid_grant", new JsonObject(refused.body()).getString("error"), aud);
        }
    }

    // ---- helpers

    static JsonObject message(String token) {
        return new JsonObject().put("token", token)
                .put("notification", new JsonObject().put("title", "t").put("body", "b"));
    }

    HttpResponse<String> send(JsonObject messageOrRequest, String bearer) throws Exception {
        JsonObject body = messageOrRequest.containsKey("message") ? messageOrRequest
                : new JsonObject().put("message", messageOrRequest);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/v1/projects/proj-sim/messages:send"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.encode()));
        if (bearer != null) {
            request.header("authorization", "Bearer " + bearer);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> token(String audience) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = url.encodeToString(new JsonObject().put("iss", EMAIL).put("aud", audience)
                .put("scope", "https://www.googleapis.com/auth/firebase.messaging").put("iat", now)
                .put("exp", now + 3600).encode().getBytes(StandardCharsets.UTF_8));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key.getPrivate());
        signer.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        String assertion = header + "." + claims + "." + url.encodeToString(signer.sign());
        String form = "grant_type=" + URLEncoder.encode("urn:ietf:params:oauth:grant-type:jwt-bearer",
                StandardCharsets.UTF_8) + "&assertion=" + assertion;
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + "/token"))
                .header("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonObject get(String path) throws Exception {
        return new JsonObject(HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    static JsonArray details(HttpResponse<String> answer) {
        return new JsonObject(answer.body()).getJsonObject("error").getJsonArray("details");
    }

    static List<String> detailTypes(HttpResponse<String> answer) {
        return details(answer).stream().map(d -> ((JsonObject) d).getString("@type")).toList();
    }

    static String fcmErrorCode(HttpResponse<String> answer) {
        return details(answer).stream().map(d -> ((JsonObject) d).getString("errorCode"))
                .filter(c -> c != null).findFirst().orElse(null);
    }

    static String field(HttpResponse<String> answer) {
        return details(answer).stream().map(d -> ((JsonObject) d).getJsonArray("fieldViolations"))
                .filter(v -> v != null).map(v -> v.getJsonObject(0).getString("field")).findFirst().orElse(null);
    }
}
