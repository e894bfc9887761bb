package io.imcore.message.send;

import static io.imcore.message.MessageChecks.asLong;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.message.MessageConfig;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** transaction_id de-duplication of send and notify (decisions.md section 4). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class DedupTest extends AppWithUsers {

    @Inject
    MessageConfig config;

    @TestHTTPResource("/message/send")
    URL sendUrl;

    @Test
    void sequentialRepeatReturnsTheFirstAnswerAndStoresOneMessage() {
        Map<String, Object> body = MessageApi.text("once only", List.of(bob));
        body.put("transaction_id", 4242);
        String first = api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true))
                .extract().asString();
        String second = api.send(alice, body).extract().asString();
        String third = api.as(alice).body(body).put("/message/send").then().statusCode(200).extract().asString();
        assertEquals(JsonPath.from(first).getMap("$"), JsonPath.from(second).getMap("$"));
        assertEquals(JsonPath.from(first).getMap("$"), JsonPath.from(third).getMap("$"));

        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        api.page(bob, alice, 0, 20).body("data.messages.content", equalTo(List.of("once only")));
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    @Test
    void repeatWithOtherContentIsNotExecutedEither() {
        Map<String, Object> body = MessageApi.text("the original", List.of(bob));
        body.put("transaction_id", 7);
        api.send(alice, body).body("code", equalTo(200));
        body.put("content", "the retry");
        body.put("targets", List.of(bob, carol));
        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        assertEquals(0, MessageChecks.messagesWithContent(database, api, "the retry"));
        api.unread(carol).body("data", hasSize(0));
    }

    @Test
    void withoutTransactionIdEverySendExecutes() {
        Map<String, Object> body = MessageApi.text("again and again", List.of(bob));
        api.send(alice, body).body("code", equalTo(200));
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesWithContent(database, api, "again and again"));
    }

    @Test
    void differentTransactionIdsFromOneSenderAllExecute() {
        for (int tx = 1; tx <= 3; tx++) {
            Map<String, Object> body = MessageApi.text("tx " + tx, List.of(bob));
            body.put("transaction_id", tx);
            api.send(alice, body).body("code", equalTo(200));
        }
        assertEquals(3, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void eightConcurrentRepeatsStoreExactlyOneMessage() throws Exception {
        String token = api.userToken(alice);
        String json = "{\"content_type\":0,\"content\":\"raced\",\"targets\":[" + bob + "],\"type\":1,"
                + "\"transaction_id\":987654321}";
        double sentBefore = sentCounter();
        List<JsonPath> answers = race(8, token, json);
        for (JsonPath answer : answers) {
            assertEquals(200, answer.getInt("code"), answer.prettify());
            assertEquals(Boolean.TRUE, answer.get("data"));
        }
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        assertEquals(1.0, sentCounter() - sentBefore, "the metric counts the one stored message, not the repeats");
        api.page(bob, alice, 0, 20).body("data.messages.content", equalTo(List.of("raced")));
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    @Test
    void concurrentRepeatsToAGroupStoreExactlyOneMessage() throws Exception {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        String json = "{\"content_type\":0,\"content\":\"raced group\",\"targets\":[" + groupId + "],\"type\":2,"
                + "\"transaction_id\":55}";
        for (JsonPath answer : race(8, api.userToken(alice), json)) {
            assertEquals(200, answer.getInt("code"), answer.prettify());
        }
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, groupId));
        api.unread(carol).body("data[0].num", equalTo(1));
    }

    @Test
    void sameTransactionIdFromTwoSendersBothExecute() {
        Map<String, Object> fromAlice = MessageApi.text("from alice", List.of(bob));
        fromAlice.put("transaction_id", 31337);
        Map<String, Object> fromCarol = MessageApi.text("from carol", List.of(bob));
        fromCarol.put("transaction_id", 31337);
        api.send(alice, fromAlice).body("code", equalTo(200));
        api.send(carol, fromCarol).body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
        api.unread(bob).body("data", hasSize(2)).body("data.num", equalTo(List.of(1, 1)));
        api.page(bob, alice, 0, 20).body("data.messages.content", equalTo(List.of("from alice")));
        api.page(bob, carol, 0, 20).body("data.messages.content", equalTo(List.of("from carol")));
    }

    @Test
    void sameTransactionIdInTwoAppsBothExecute() {
        MessageApi other = MessageApi.newApp(database);
        long otherAlice = other.newUser();
        long otherBob = other.newUser();
        Map<String, Object> body = MessageApi.text("per app", List.of(bob));
        body.put("transaction_id", 1);
        api.send(alice, body).body("code", equalTo(200));
        body.put("targets", List.of(otherBob));
        other.send(otherAlice, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        assertEquals(1, MessageChecks.messagesOfApp(database, other));
    }

    @Test
    void repeatAfterAFailedFirstCallExecutes() {
        long unknown = 999_999_999_999L;
        Map<String, Object> body = MessageApi.text("second try", List.of(bob, unknown));
        body.put("transaction_id", 77);
        api.send(alice, body).body("code", equalTo(10000));
        assertEquals(0, MessageChecks.messagesOfApp(database, api));

        body.put("targets", List.of(bob));
        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        // and now it is a repeat
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void repeatAfterAFailedGroupSendExecutes() {
        long groupId = api.createGroup(bob, List.of());
        Map<String, Object> body = MessageApi.toGroup("knock knock", groupId);
        body.put("transaction_id", 12);
        api.send(alice, body).body("code", equalTo(20002));
        api.as(bob).body(Map.of("group_id", groupId, "user_list", List.of(alice))).post("/group/invite").then()
                .body("code", equalTo(200));
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, groupId));
    }

    /**
     * The first call was executed; before the client's retry the sender left the group. The retry is a repeat
     * within the window, so it is not executed and gets the first call's answer (true), not a membership error
     * that would tell the client the message was not sent.
     */
    @Test
    void repeatGetsTheFirstAnswerEvenWhenItWouldNowFail() {
        long groupId = api.createGroup(bob, List.of(alice));
        Map<String, Object> body = MessageApi.toGroup("sent before leaving", groupId);
        body.put("transaction_id", 2024);
        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true));
        api.as(alice).queryParam("group_id", groupId).post("/group/leave").then().body("code", equalTo(200));

        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, groupId));
    }

    @Test
    void repeatAfterTheWindowExecutesAgain() {
        Map<String, Object> body = MessageApi.text("old news", List.of(bob));
        body.put("transaction_id", 600);
        api.send(alice, body).body("code", equalTo(200));
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));

        // age the first call beyond the configured window (im.message.dedup-window)
        long window = config.dedupWindow().toSeconds();
        int aged = database.inTransaction(c -> {
            try (var ps = c.prepareStatement("update send_dedup set created_at = now() - make_interval(secs => ?)"
                    + " where app_id = ? and sender_id = ? and transaction_id = 600")) {
                ps.setDouble(1, window + 60);
                ps.setString(2, api.appId);
                ps.setLong(3, alice);
                return ps.executeUpdate();
            }
        });
        assertEquals(1, aged, "the first call left one de-duplication record");
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void adminSendingAsAUserSharesThatUsersTransactionIds() {
        Map<String, Object> body = MessageApi.text("as alice", List.of(bob));
        body.put("transaction_id", 99);
        api.send(alice, body).body("code", equalTo(200));
        Map<String, Object> viaAdmin = MessageApi.text("as alice via admin", List.of(bob));
        viaAdmin.put("transaction_id", 99);
        viaAdmin.put("from_user_id", alice);
        api.asAdmin().body(viaAdmin).post("/message/send").then().body("code", equalTo(200));
        api.asAdmin().header("user_id", alice).body(viaAdmin).post("/message/send").then().body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        // the admin sending as carol is another sender
        viaAdmin.put("from_user_id", carol);
        api.asAdmin().body(viaAdmin).post("/message/send").then().body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void notifyDedupsForTheSystemSender() {
        Map<String, Object> body = MessageApi.text("maintenance", List.of(alice, bob));
        body.put("transaction_id", 5);
        api.asAdmin().body(body).post("/message/notify").then().statusCode(200).body("code", equalTo(200))
                .body("data", equalTo(true));
        api.asAdmin().body(body).put("/message/notify").then().body("code", equalTo(200)).body("data", equalTo(true));
        body.put("content", "maintenance (retry)");
        api.asAdmin().body(body).post("/message/notify").then().body("code", equalTo(200));

        // one message in each target's system conversation (0), stored once per target
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
        api.page(bob, 0, 0, 20).body("data.messages.content", equalTo(List.of("maintenance")))
                .body("data.messages[0].from_xid.uid", equalTo(0));
        api.unread(alice).body("data", hasSize(1)).body("data[0].conversation_id.uid", equalTo(0))
                .body("data[0].num", equalTo(1));

        // a user's send with the same transaction_id is another sender's: it executes
        Map<String, Object> fromAlice = MessageApi.text("not the system", List.of(bob));
        fromAlice.put("transaction_id", 5);
        api.send(alice, fromAlice).body("code", equalTo(200));
        assertEquals(3, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void concurrentNotifyRepeatsStoreOnce() throws Exception {
        String json = "{\"content_type\":0,\"content\":\"system race\",\"targets\":[" + alice + "," + bob
                + "],\"type\":1,\"transaction_id\":8}";
        List<JsonPath> answers = race(8, api.adminToken(), json, URI.create(sendUrl.toString()
                .replace("/message/send", "/message/notify")));
        for (JsonPath answer : answers) {
            assertEquals(200, answer.getInt("code"), answer.prettify());
        }
        assertEquals(2, MessageChecks.messagesOfApp(database, api));
        long bobsMessages = asLong(api.page(bob, 0, 0, 20).extract().path("data.messages_size"));
        assertEquals(1, bobsMessages);
    }

    private List<JsonPath> race(int threads, String token, String json) throws Exception {
        return race(threads, token, json, sendUrl.toURI());
    }

    /** Sends the same request from several threads released together; returns every answer. */
    private List<JsonPath> race(int threads, String token, String json, URI uri) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .header("app_id", api.appId).header("access-token", token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return client.send(request, HttpResponse.BodyHandlers.ofString());
                }));
            }
            assertTrue(ready.await(10, TimeUnit.SECONDS), "threads ready");
            go.countDown();
            List<JsonPath> answers = new ArrayList<>();
            for (Future<HttpResponse<String>> future : futures) {
                HttpResponse<String> response = future.get(30, TimeUnit.SECONDS);
                assertEquals(200, response.statusCode(), response.body());
                answers.add(JsonPath.from(response.body()));
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    /** imcore_messages_sent_total of 1:1 sends, from /q/metrics (tests of this class run one at a time). */
    private static double sentCounter() {
        String metrics = io.restassured.RestAssured.get("/q/metrics").asString();
        return metrics.lines()
                .filter(l -> l.startsWith("imcore_messages_sent_total") && l.contains("operation=\"send\"")
                        && l.contains("target_type=\"user\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
