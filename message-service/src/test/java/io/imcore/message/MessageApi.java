package io.imcore.message;

import static io.restassured.RestAssured.given;

import io.imcore.common.context.AuthViewStore;
import io.imcore.common.store.Database;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

/**
 * Test helper: an app of its own per test (isolation on the shared database) with users written into the auth view
 * exactly as AuthViewUpdater writes them from auth-service's events, and tokens signed with the test key.
 */
final class MessageApi {

    private static final AtomicLong NEXT_USER = new AtomicLong(
            10_000 + ThreadLocalRandom.current().nextLong(1_000_000_000L));

    final String appId;
    private final Database database;

    private MessageApi(Database database, String appId) {
        this.database = database;
        this.appId = appId;
    }

    static MessageApi newApp(Database database) {
        String appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        database.inTransaction(c -> {
            AuthViewStore.upsertApp(c, appId, 1);
            return null;
        });
        return new MessageApi(database, appId);
    }

    long newUser() {
        long id = NEXT_USER.incrementAndGet();
        database.inTransaction(c -> {
            AuthViewStore.upsertUser(c, appId, id, 1, false);
            return null;
        });
        return id;
    }

    void disable(long userId) {
        database.inTransaction(c -> {
            AuthViewStore.upsertUser(c, appId, userId, 1, true);
            return null;
        });
    }

    String userToken(long userId) {
        return sign(TestTokens.userClaims(appId, userId, 1));
    }

    String userToken(long userId, int deviceSn) {
        JwtClaims claims = TestTokens.userClaims(appId, userId, 1);
        claims.setClaim("dsn", deviceSn);
        return sign(claims);
    }

    String adminToken() {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer("imcore-auth");
        claims.setIssuedAtToNow();
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(3600);
        claims.setExpirationTime(expiry);
        claims.setSubject("admin");
        claims.setClaim("app", appId);
        claims.setClaim("role", "admin");
        claims.setClaim("tv", 1);
        return sign(claims);
    }

    private static String sign(JwtClaims claims) {
        return TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys().getPrivate());
    }

    RequestSpecification as(long userId) {
        return given().header("app_id", appId).header("access-token", userToken(userId)).contentType(ContentType.JSON);
    }

    RequestSpecification asAdmin() {
        return given().header("app_id", appId).header("access-token", adminToken()).contentType(ContentType.JSON);
    }

    static Map<String, Object> text(String content, List<Long> targets) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("content_type", 0);
        body.put("content", content);
        body.put("targets", targets);
        body.put("type", 1);
        return body;
    }

    static Map<String, Object> toGroup(String content, long groupId) {
        Map<String, Object> body = text(content, List.of(groupId));
        body.put("type", 2);
        return body;
    }

    ValidatableResponse send(long from, Map<String, Object> body) {
        return as(from).body(body).post("/message/send").then().statusCode(200);
    }

    /** Sends a text and expects success. */
    void sendText(long from, long to, String content) {
        send(from, text(content, List.of(to))).body("code", org.hamcrest.Matchers.equalTo(200));
    }

    ValidatableResponse page(long viewer, long opposite, long start, int limit) {
        return as(viewer).queryParam("opposite_id", opposite).queryParam("msg_id_start", start)
                .queryParam("limit", limit).get("/message/conversation").then().statusCode(200);
    }

    ValidatableResponse unread(long viewer) {
        return as(viewer).get("/message/unread").then().statusCode(200);
    }

    long createGroup(long owner, List<Long> members) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "group of " + owner);
        body.put("user_list", members);
        Number id = as(owner).body(body).post("/group/create").then().statusCode(200)
                .body("code", org.hamcrest.Matchers.equalTo(200)).extract().path("data.group_id");
        return id.longValue();
    }
}
