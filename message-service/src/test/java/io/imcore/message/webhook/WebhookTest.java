package io.imcore.message.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.standardwebhooks.Webhook;
import io.imcore.common.store.Database;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicWriter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An app's webhook: its settings, and its events out, signed, in order, retried (docs/webhooks.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class WebhookTest extends AppWithUsers {

    @Inject
    DeliveryStore deliveries;

    @Inject
    MeterRegistry registry;

    @Inject
    Database database;

    @Inject
    WebhookSecrets secrets;

    private AppEndpointStub receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new AppEndpointStub();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private JsonPath save(Map<String, Object> settings) {
        return api.asAdmin().body(settings).post("/app/webhook").then().statusCode(200).extract().jsonPath();
    }

    private Map<String, Object> settings(String url) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", url);
        settings.put("events", List.of("message.created"));
        return settings;
    }

    @Test
    void savingAnswersANewSecretOnceAndReadingMasksIt() {
        String first = save(settings(receiver.url())).getString("data.secret");
        assertTrue(first.startsWith("whsec_"), first);
        assertEquals(32, Base64.getDecoder().decode(first.substring("whsec_".length())).length);
        JsonPath read = api.asAdmin().get("/app/webhook").then().statusCode(200).extract().jsonPath();
        assertEquals(200, read.getInt("code"));
        assertEquals(receiver.url(), read.getString("data.url"));
        assertEquals(500, read.getInt("data.hook_timeout_ms"));
        assertEquals(true, read.getBoolean("data.hook_fail_open"));
        assertEquals("whsec_****" + first.substring(first.length() - 4), read.getString("data.secret"));
        String second = save(settings(receiver.url())).getString("data.secret");
        assertNotEquals(first, second, "saving again rotates the secret");
        api.as(alice).get("/app/webhook").then().statusCode(200)
                .body("code", org.hamcrest.Matchers.equalTo(10010));
    }

    /** A database dump holds no usable secret: the row keeps it sealed, and a secret left in clear is sealed at start. */
    @Test
    void theSecretIsStoredSealedAndAClearOneIsSealedAtStart() {
        String secret = save(settings(receiver.url())).getString("data.secret");
        byte[] sealed = database.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "select secret, secret_sealed from webhook_endpoints where app_id = ?")) {
                s.setString(1, api.appId);
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    assertNull(rs.getString(1));
                    return rs.getBytes(2);
                }
            }
        });
        assertFalse(new String(sealed, StandardCharsets.ISO_8859_1).contains(secret.substring("whsec_".length())));
        assertEquals(secret, secrets.open(sealed, api.appId));
        assertThrows(IllegalArgumentException.class, () -> secrets.open(sealed, api.appId + "x"),
                "bound to its app's row");

        database.inTransaction(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "update webhook_endpoints set secret = ?, secret_sealed = null where app_id = ?")) {
                s.setString(1, secret);
                s.setString(2, api.appId);
                return s.executeUpdate();
            }
        });
        secrets.sealClearSecrets(null);
        JsonPath read = api.asAdmin().get("/app/webhook").then().statusCode(200).extract().jsonPath();
        assertEquals("whsec_****" + secret.substring(secret.length() - 4), read.getString("data.secret"));
    }

    @Test
    void privateAndMetadataAddressesAreRefused() {
        for (String url : List.of("http://10.1.2.3/hook", "http://169.254.169.254/latest/meta-data",
                "http://192.168.0.10/hook", "http://[fd00::1]/hook", "ftp://example.com/hook")) {
            JsonPath refused = save(settings(url));
            assertEquals(10002, refused.getInt("code"), url);
            assertTrue(refused.getString("message").startsWith("url: "), refused.getString("message"));
        }
        Map<String, Object> slow = settings(receiver.url());
        slow.put("hook_timeout_ms", 2001);
        assertEquals("hook_timeout_ms: must be 1 to 2000", save(slow).getString("message"));
        Object saved = api.asAdmin().get("/app/webhook").then().extract().path("data");
        assertEquals(null, saved, "nothing was saved");
    }

    @Test
    void eventsArriveSignedAndInOrderPerConversation() throws Exception {
        String secret = save(settings(receiver.url())).getString("data.secret");
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add("in order " + i);
            api.sendText(alice, bob, sent.get(i));
        }
        Webhook verifier = new Webhook(secret); // the Standard Webhooks reference library, not our signer
        List<String> arrived = new ArrayList<>();
        HashSet<String> ids = new HashSet<>();
        for (int i = 0; i < sent.size(); i++) {
            AppEndpointStub.Received event = receiver.next(30);
            assertNotNull(event, "event " + i + " arrived");
            verifier.verify(event.body(), event.headers());
            JsonPath body = JsonPath.from(event.body());
            assertEquals("message.created", body.getString("type"));
            assertNotNull(body.getString("timestamp"));
            assertEquals(alice, body.getLong("data.from_user_id"));
            assertEquals(bob, body.getLong("data.to_id"));
            assertTrue(ids.add(event.header("webhook-id")), "each event has its own id");
            arrived.add(body.getString("data.content"));
        }
        assertEquals(sent, arrived);
    }

    @Test
    void aDeliveryAnsweredWith500IsRetriedWithTheSameId() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        receiver.answer(request -> calls.getAndIncrement() == 0
                ? new AppEndpointStub.Answer(500, "{\"error\":\"busy\"}", 0) : AppEndpointStub.Answer.ok("{}"));
        String secret = save(settings(receiver.url())).getString("data.secret");
        api.sendText(alice, bob, "retried");
        AppEndpointStub.Received first = receiver.next(30);
        AppEndpointStub.Received again = receiver.next(30);
        assertNotNull(first);
        assertNotNull(again, "retried after the 500");
        assertEquals(first.header("webhook-id"), again.header("webhook-id"));
        new Webhook(secret).verify(again.body(), again.headers());
        JsonPath log = null;
        for (int i = 0; i < 100; i++) { // the outcome is recorded right after the answer
            log = api.asAdmin().get("/app/webhook/deliveries").then().statusCode(200).extract().jsonPath();
            if ("delivered".equals(log.getString("data[0].state"))) {
                break;
            }
            Thread.sleep(50);
        }
        assertEquals("delivered", log.getString("data[0].state"));
        assertEquals(2, log.getInt("data[0].attempts"));
        assertEquals(200, log.getInt("data[0].last_status"));
        assertEquals("message.created", log.getString("data[0].type"));
    }

    @Test
    void anAppWithABatchSizeGetsSeveralEventsInOneSignedRequest() throws Exception {
        Map<String, Object> batched = settings(receiver.url());
        batched.put("batch_size", 10);
        String secret = save(batched).getString("data.secret");
        // three conversations' events queued at once, as a busy app's are: one round claims them together
        List<DeliveryStore.Queued> events = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            events.add(new DeliveryStore.Queued(api.appId, "evt_batch_test_" + i, "message.created",
                    api.appId + ":batch-" + i, "{\"type\":\"message.created\",\"timestamp\":\"2026-12-06T00:00:00Z\","
                    + "\"data\":{\"n\":" + i + "}}"));
        }
        database.inTransaction(c -> {
            deliveries.queue(c, events);
            return null;
        });
        AppEndpointStub.Received batch = receiver.next(30);
        assertNotNull(batch);
        new Webhook(secret).verify(batch.body(), batch.headers());
        JsonPath body = JsonPath.from(batch.body());
        assertEquals("batch", body.getString("type"));
        assertEquals(List.of("evt_batch_test_0", "evt_batch_test_1", "evt_batch_test_2"),
                body.getList("data.events.id"));
        assertEquals(List.of(0, 1, 2), body.getList("data.events.data.n"));
        assertEquals(List.of("message.created", "message.created", "message.created"),
                body.getList("data.events.type"));
    }

    @Test
    void aGroupsMessagesAndChangesArriveInOneOrder() throws Exception {
        Map<String, Object> all = settings(receiver.url());
        all.put("events", List.of("*"));
        String secret = save(all).getString("data.secret");
        long group = api.createGroup(alice, List.of(bob, carol));
        api.send(alice, MessageApi.toGroup("to the group", group)).body("code", org.hamcrest.Matchers.equalTo(200));
        api.as(carol).post("/group/leave?group_id=" + group).then().statusCode(200)
                .body("code", org.hamcrest.Matchers.equalTo(200));
        Number msgId = api.page(alice, group, 0, 1).extract().path("data.messages[0].msg_id");
        api.as(alice).body(Map.of("conversation_id", group, "msg_id", msgId)).post("/message/recall").then()
                .body("code", org.hamcrest.Matchers.equalTo(200));
        List<String> types = new ArrayList<>();
        List<JsonPath> bodies = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            AppEndpointStub.Received event = receiver.next(30);
            assertNotNull(event, "event " + i);
            new Webhook(secret).verify(event.body(), event.headers());
            bodies.add(JsonPath.from(event.body()));
            types.add(bodies.get(i).getString("type"));
            ids.add(event.header("webhook-id"));
        }
        // one order per conversation: each event is queued in its change's transaction (docs/webhooks.md)
        assertEquals(List.of("group.created", "message.created", "group.members_removed", "message.recalled"), types);
        assertEquals(group, bodies.get(0).getLong("data.group_id"));
        assertEquals(alice, bodies.get(0).getLong("data.owner_id"));
        JsonPath message = bodies.get(1);
        assertEquals("to the group", message.getString("data.content"));
        assertEquals("group", message.getString("data.kind"));
        assertEquals(alice, message.getLong("data.from_user_id"));
        assertEquals(group, message.getLong("data.to_id"));
        assertEquals("evt_msg_created_" + msgId, ids.get(1));
        assertEquals(List.of((int) carol), bodies.get(2).getList("data.user_ids"));
        assertEquals("left", bodies.get(2).getString("data.reason"));
        assertEquals(msgId.longValue(), bodies.get(3).getLong("data.msg_id"));
    }

    @Test
    void anEditAndARecallArriveAsTheirEvents() throws Exception {
        Map<String, Object> changes = settings(receiver.url());
        changes.put("events", List.of("message.edited", "message.recalled"));
        String secret = save(changes).getString("data.secret");
        api.sendText(alice, bob, "helo");
        Number msgId = api.page(bob, alice, 0, 1).extract().path("data.messages[0].msg_id");
        Map<String, Object> edit = Map.of("conversation_id", bob, "msg_id", msgId, "content", "hello");
        api.as(alice).body(edit).post("/message/edit").then().body("code", org.hamcrest.Matchers.equalTo(200));
        api.as(alice).body(Map.of("conversation_id", bob, "msg_id", msgId)).post("/message/recall").then()
                .body("code", org.hamcrest.Matchers.equalTo(200));
        List<JsonPath> bodies = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            AppEndpointStub.Received event = receiver.next(30);
            assertNotNull(event, "event " + i);
            new Webhook(secret).verify(event.body(), event.headers());
            bodies.add(JsonPath.from(event.body()));
        }
        assertEquals(List.of("message.edited", "message.recalled"), bodies.stream().map(b -> b.getString("type"))
                .toList(), "in their order: one conversation");
        assertEquals("hello", bodies.get(0).getString("data.content"));
        assertEquals(msgId.longValue(), bodies.get(1).getLong("data.msg_id"));
        assertEquals(alice, bodies.get(1).getLong("data.from_user_id"));
        assertEquals(bob, bodies.get(1).getLong("data.to_id"));
        assertEquals(alice, bodies.get(1).getLong("data.recalled_by"));
        assertEquals(false, bodies.get(1).getBoolean("data.by_admin"));
    }

    @Test
    void aReadReceiptThatMovesTheReadPositionArrivesAsMessageRead() throws Exception {
        Map<String, Object> reads = settings(receiver.url());
        reads.put("events", List.of("message.created", "message.read"));
        String secret = save(reads).getString("data.secret");
        api.sendText(alice, bob, "first");
        api.sendText(alice, bob, "second");
        List<Number> msgIds = api.page(bob, alice, 0, 2).extract().path("data.messages.msg_id");
        ack(bob, alice, msgIds.get(0));
        ack(bob, alice, msgIds.get(0)); // the position does not move: no event
        ack(bob, alice, msgIds.get(1));
        api.sendText(alice, bob, "after the receipts");
        List<JsonPath> bodies = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            AppEndpointStub.Received event = receiver.next(30);
            assertNotNull(event, "event " + i);
            new Webhook(secret).verify(event.body(), event.headers());
            bodies.add(JsonPath.from(event.body()));
        }
        assertEquals(List.of("message.created", "message.created", "message.read", "message.read",
                "message.created"), bodies.stream().map(b -> b.getString("type")).toList(),
                "one event per move, in the conversation's order");
        JsonPath read = bodies.get(2);
        assertEquals(bob, read.getLong("data.reader_id"));
        assertEquals(alice, read.getLong("data.conversation_id"));
        assertEquals("direct", read.getString("data.kind"));
        assertEquals(msgIds.get(0).longValue(), read.getLong("data.msg_id"));
        assertEquals(bodies.get(3).getLong("data.seq") - 1, read.getLong("data.seq"));
        assertEquals(msgIds.get(1).longValue(), bodies.get(3).getLong("data.msg_id"));
        assertEquals("after the receipts", bodies.get(4).getString("data.content"));
    }

    private void ack(long reader, long address, Number msgId) {
        api.as(reader).queryParam("conversation_id", address).queryParam("msg_id", msgId).get("/message/ack").then()
                .body("code", org.hamcrest.Matchers.equalTo(200));
    }

    @Test
    void userEventsOfAuthServiceArrive() throws Exception {
        Map<String, Object> users = settings(receiver.url());
        users.put("events", List.of("user.changed"));
        String secret = save(users).getString("data.secret");
        TopicWriter.send("auth.events", api.appId + ":" + carol, "{\"v\":1,\"type\":\"user.changed\",\"app_id\":\""
                + api.appId + "\",\"user_id\":" + carol + ",\"token_version\":1,\"disabled\":true,\"at\":"
                + System.currentTimeMillis() + "}");
        AppEndpointStub.Received event = receiver.next(30);
        assertNotNull(event);
        new Webhook(secret).verify(event.body(), event.headers());
        JsonPath body = JsonPath.from(event.body());
        assertEquals("user.changed", body.getString("type"));
        assertEquals(carol, body.getLong("data.user_id"));
        assertEquals(true, body.getBoolean("data.disabled"));
    }

    @Test
    void pushEventsOfThePushDatabaseArriveWithTheirData() throws Exception {
        Map<String, Object> pushes = settings(receiver.url());
        pushes.put("events", List.of("push.task.finished", "offline_push.failed"));
        String secret = save(pushes).getString("data.secret");
        long now = System.currentTimeMillis();
        // as push-service's triggers write them (migration V17); first one of an app without an endpoint
        TopicWriter.send("push.events", "other-app:push_task:1", "{\"v\":1,\"type\":\"push.task.finished\","
                + "\"app_id\":\"other-app\",\"at\":" + now + ",\"data\":{\"task_id\":1}}");
        TopicWriter.send("push.events", api.appId + ":offline_push:" + bob, "{\"v\":1,\"type\":"
                + "\"offline_push.failed\",\"app_id\":\"" + api.appId + "\",\"at\":" + now + ",\"data\":{\"msg_id\":"
                + "57,\"user_id\":" + bob + ",\"device_sn\":1,\"conversation\":\"u:" + alice + "\",\"channel\":"
                + "\"vendor_a\",\"outcome\":\"rejected\",\"reason\":\"token unregistered\"}}");
        TopicWriter.send("push.events", api.appId + ":push_task:7", "{\"v\":1,\"type\":\"push.task.finished\","
                + "\"app_id\":\"" + api.appId + "\",\"at\":" + now + ",\"data\":{\"task_id\":7,\"state\":\"done\","
                + "\"counts\":{\"ios\":{\"target\":2,\"sent\":2,\"received\":0,\"failed\":0,\"rejected\":0}}}}");
        List<JsonPath> bodies = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            AppEndpointStub.Received event = receiver.next(30);
            assertNotNull(event, "event " + i);
            new Webhook(secret).verify(event.body(), event.headers());
            assertTrue(event.header("webhook-id").startsWith("evt_push_"), event.header("webhook-id"));
            bodies.add(JsonPath.from(event.body()));
        }
        bodies.sort(Comparator.comparing(b -> b.getString("type")));
        JsonPath failed = bodies.get(0);
        assertEquals("offline_push.failed", failed.getString("type"));
        assertEquals(bob, failed.getLong("data.user_id"));
        assertEquals("vendor_a", failed.getString("data.channel"));
        assertEquals("token unregistered", failed.getString("data.reason"));
        JsonPath finished = bodies.get(1);
        assertEquals("push.task.finished", finished.getString("type"));
        assertEquals(7, finished.getInt("data.task_id"));
        assertEquals(2, finished.getInt("data.counts.ios.sent"));
    }

    @Test
    void anEndpointStillFailingADayLaterIsDisabledAndSavingEnablesItAgain() throws Exception {
        receiver.answer(request -> new AppEndpointStub.Answer(500, "{\"error\":\"down for a day\"}", 0));
        save(settings(receiver.url()));
        double disabledBefore = registry.get("imcore.webhook.endpoints.disabled").counter().count();
        database.inTransaction(c -> {
            deliveries.queue(c, List.of(new DeliveryStore.Queued(api.appId, "evt_a_day_old", "message.created",
                    api.appId + ":old", "{\"type\":\"message.created\",\"timestamp\":\"2026-12-05T00:00:00Z\",\"data\":{}}")));
            try (var s = c.prepareStatement(
                    "update webhook_deliveries set created_at = now() - interval '25 hours' where app_id = ?")) {
                s.setString(1, api.appId);
                s.executeUpdate();
            }
            return null;
        });
        assertNotNull(receiver.next(30), "attempted once more");
        JsonPath read = null;
        for (int i = 0; i < 100; i++) { // the attempt's outcome is recorded right after its answer
            read = api.asAdmin().get("/app/webhook").then().statusCode(200).extract().jsonPath();
            if (read.getBoolean("data.disabled")) {
                break;
            }
            Thread.sleep(50);
        }
        assertEquals(true, read.getBoolean("data.disabled"));
        assertTrue(read.getString("data.disabled_reason").contains("down for a day"), read.getString("data.disabled_reason"));
        assertEquals(disabledBefore + 1, registry.get("imcore.webhook.endpoints.disabled").counter().count());

        receiver.answer(request -> AppEndpointStub.Answer.ok("{}"));
        String secret = save(settings(receiver.url())).getString("data.secret");
        AppEndpointStub.Received again = receiver.next(30);
        assertNotNull(again, "the waiting event goes once the endpoint is enabled again");
        assertEquals("evt_a_day_old", again.header("webhook-id"));
        new Webhook(secret).verify(again.body(), again.headers());
        assertEquals(false, api.asAdmin().get("/app/webhook").then().extract().jsonPath().getBoolean("data.disabled"));
    }
}
