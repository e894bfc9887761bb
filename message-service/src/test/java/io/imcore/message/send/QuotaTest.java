package io.imcore.message.send;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Per-app quotas of /message/send and /message/notify, and the operator's overrides (docs/throttling.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class QuotaTest extends AppWithUsers {

    private RequestSpecification operator(String appId) {
        return given().header("platform-key", "test-platform-key").header("app_id", appId).contentType(ContentType.JSON);
    }

    private JsonPath override(String quota, int limit, int periodSeconds, int burst) {
        return operator(api.appId).body(Map.of("quota", quota, "limit", limit, "period_seconds", periodSeconds,
                "burst", burst)).put("/message/quota").then().statusCode(200).extract().jsonPath();
    }

    private List<Integer> sends(int count) {
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            codes.add(api.send(alice, MessageApi.text("quota " + i, List.of(bob))).extract().jsonPath().getInt("code"));
        }
        return codes;
    }

    @Test
    void anAppOverItsSendQuotaGets10015WithRetryAfterAndOtherAppsDoNot() {
        override("message-send", 1, 60, 3);
        assertEquals(List.of(200, 200, 200), sends(3));
        Response refused = api.as(alice).body(MessageApi.text("one too many", List.of(bob))).put("/message/send");
        assertEquals(200, refused.statusCode());
        assertEquals(10015, refused.jsonPath().getInt("code"), "PUT and POST share the quota");
        String retryAfter = refused.header("Retry-After");
        assertNotNull(retryAfter);
        assertTrue(Long.parseLong(retryAfter) > 50 && Long.parseLong(retryAfter) <= 60, retryAfter);
        assertEquals("too many requests: retry after " + retryAfter + " seconds", refused.jsonPath().getString("message"));

        MessageApi other = MessageApi.newApp(database);
        long carol = other.newUser();
        other.send(carol, MessageApi.text("my own quota", List.of(carol))).extract().jsonPath().getInt("code");
        assertEquals(200, other.send(carol, MessageApi.text("still mine", List.of(carol))).extract().jsonPath()
                .getInt("code"));
        String metrics = given().get("/q/metrics").asString();
        assertTrue(metrics.contains("imcore_throttled_total{limit=\"app\",route=\"/message/send\"}"), metrics);
    }

    @Test
    void concurrentSendsTakeExactlyTheQuotaEvenWhenTheirTakesAreCombined() throws Exception {
        override("message-send", 1, 60, 25);
        ExecutorService pool = Executors.newFixedThreadPool(30);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> codes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Map<String, Object> body = MessageApi.text("rush " + i, List.of(bob));
            codes.add(pool.submit(() -> {
                go.await();
                return api.send(alice, body).extract().jsonPath().getInt("code");
            }));
        }
        go.countDown();
        Map<Integer, Integer> answers = new TreeMap<>();
        for (Future<Integer> code : codes) {
            answers.merge(code.get(60, TimeUnit.SECONDS), 1, Integer::sum);
        }
        pool.shutdown();
        assertEquals(Map.of(200, 25, 10015, 35), answers, "the burst, no more, no less");
        assertEquals(25, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void oneUserAtTheirLimitGets10015WhileAnotherUserOfTheAppStillSends() throws Exception {
        override("message-send-per-user", 1, 60, 3);
        assertEquals(List.of(200, 200, 200, 10015), sends(4), "alice's own limit");
        Response refused = api.as(alice).body(MessageApi.text("still alice", List.of(bob))).post("/message/send");
        assertEquals(10015, refused.jsonPath().getInt("code"));
        assertTrue(Long.parseLong(refused.header("Retry-After")) > 1, refused.header("Retry-After"));
        Map<String, Object> asAlice = new HashMap<>(MessageApi.text("admin for alice", List.of(bob)));
        asAlice.put("from_user_id", alice);
        assertEquals(10015, api.asAdmin().body(asAlice).post("/message/send").jsonPath().getInt("code"),
                "an admin acting as alice counts for alice");
        assertEquals(200, api.send(bob, MessageApi.text("bob is not alice", List.of(carol))).extract().jsonPath()
                .getInt("code"), "another user of the app still sends");
        String metrics = given().get("/q/metrics").asString();
        assertTrue(metrics.contains("imcore_throttled_total{limit=\"user\",route=\"/message/send\"}"), metrics);
        assertTrue(sharedDebtSeconds(alice) > 100, "alice's 3 sends (3 minutes at 1 a minute) reach the bucket every"
                + " replica reads, within a few settles");
    }

    /** How far the user's shared bucket is ahead of now, once the replica has settled (0 until then, up to 10 s). */
    private long sharedDebtSeconds(long user) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long ahead = 0;
        while (ahead == 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
            ahead = database.read(c -> {
                try (var ps = c.prepareStatement("select extract(epoch from tat - now())::bigint from throttle_buckets"
                        + " where key = ?")) {
                    ps.setString(1, "quota:message-send-per-user:" + api.appId + ":" + user);
                    try (var rs = ps.executeQuery()) {
                        return rs.next() ? rs.getLong(1) : 0L;
                    }
                }
            });
        }
        return ahead;
    }

    @Test
    void aSendCostsItsTargets() {
        List<Long> many = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            many.add(api.newUser());
        }
        override("message-send", 1, 3600, 502);
        assertEquals(200, api.send(alice, MessageApi.text("to 500", many)).extract().jsonPath().getInt("code"));
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            codes.add(api.send(bob, MessageApi.text("one more", List.of(carol))).extract().jsonPath().getInt("code"));
        }
        assertEquals(List.of(200, 200, 10015), codes, "the 500-target call took 500 of the app's 502");
    }

    @Test
    void notifyHasItsOwnQuota() {
        override("message-notify", 1, 60, 1);
        Map<String, Object> notice = MessageApi.text("maintenance tonight", List.of(bob));
        assertEquals(200, api.asAdmin().body(notice).post("/message/notify").jsonPath().getInt("code"));
        assertEquals(10015, api.asAdmin().body(notice).post("/message/notify").jsonPath().getInt("code"));
        assertEquals(List.of(200), sends(1), "sends are counted apart");
    }

    @Test
    void callsRefusedByAuthenticationDoNotUseTheQuota() {
        override("message-send", 1, 60, 2);
        for (int i = 0; i < 5; i++) {
            given().header("app_id", api.appId).header("access-token", "not-a-token").contentType(ContentType.JSON)
                    .body(MessageApi.text("x", List.of(bob))).post("/message/send").then().statusCode(200);
        }
        assertEquals(List.of(200, 200, 10015), sends(3));
    }

    @Test
    void theOperatorReadsRaisesAndResetsAnAppsQuotas() {
        JsonPath defaults = operator(api.appId).get("/message/quota").then().statusCode(200).extract().jsonPath();
        assertEquals(200, defaults.getInt("code"));
        assertEquals(List.of("message-send", "message-send-per-user", "message-notify", "file"),
                defaults.getList("data.quota"));
        assertEquals(List.of(false, false, false, false), defaults.getList("data.overridden"));
        assertEquals(500, defaults.getInt("data[0].limit"));
        assertEquals(1, defaults.getInt("data[0].period_seconds"));
        assertEquals(1000, defaults.getInt("data[0].burst"));

        override("message-send", 1, 3600, 1);
        assertEquals(List.of(200, 10015), sends(2));
        JsonPath raised = override("message-send", 100, 1, 100);
        assertEquals(true, raised.getBoolean("data[0].overridden"));
        assertEquals(100, raised.getInt("data[0].limit"));
        assertEquals(List.of(200, 200), sends(2), "a new limit starts with a full bucket");

        override("message-send", 1, 3600, 1);
        assertEquals(List.of(200, 10015), sends(2));
        JsonPath reset = operator(api.appId).delete("/message/quota?quota=message-send").then().statusCode(200)
                .extract().jsonPath();
        assertFalse(reset.getBoolean("data[0].overridden"));
        assertEquals(List.of(200, 200), sends(2), "back to the default");
    }

    /** The services' key opens /internal/* only: a service pod must not become an operator by it. */
    @Test
    void theInternalKeyIsNoOperator() {
        for (String header : List.of("internal-key", "platform-key")) {
            given().header(header, "test-internal-key").header("app_id", api.appId).get("/message/quota").then()
                    .statusCode(200).body("code", org.hamcrest.Matchers.equalTo(10010));
        }
    }

    @Test
    void operatorMistakesGetTheEnvelope() {
        given().header("platform-key", "wrong").header("app_id", api.appId).get("/message/quota").then()
                .statusCode(200).body("code", org.hamcrest.Matchers.equalTo(10010));
        operator("nosuchapp").get("/message/quota").then().body("code", org.hamcrest.Matchers.equalTo(40000));
        operator(api.appId).body(Map.of("quota", "push-notify", "limit", 1, "period_seconds", 1, "burst", 1))
                .put("/message/quota").then().body("code", org.hamcrest.Matchers.equalTo(10002))
                .body("message", org.hamcrest.Matchers.equalTo("quota: one of message-send, message-send-per-user, message-notify, file"));
        operator(api.appId).body(Map.of("quota", "message-send", "limit", 0, "period_seconds", 1, "burst", 1))
                .put("/message/quota").then().body("code", org.hamcrest.Matchers.equalTo(10002))
                .body("message", org.hamcrest.Matchers.equalTo("limit: 1 to 1000000"));
    }
}
