package io.imcore.message.offlinepush;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.AdvisoryLocks;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.Eventually;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * message.events for offline push (docs/offline-push.md): what message-service announces after a message commits,
 * and after the ack window for live devices that did not acknowledge it.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class OfflinePushEventsTest extends AppWithUsers {

    private static final String TOPIC = "message.events";
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long PUBLISHER_LOCK = OfflinePushPublisher.PUBLISHER_LOCK;

    /** The app's events of the given type that the filter accepts, once {@code expected} arrived. */
    private List<JsonNode> events(String type, int expected, java.util.function.Predicate<JsonNode> filter) {
        return TopicReader.await(TOPIC, r -> r.key().startsWith(api.appId + ":") && matches(r, type, filter), expected,
                WAIT).stream().map(OfflinePushEventsTest::parse).toList();
    }

    /** The app's events so far that the filter accepts: for what must not be there, once a later event is. */
    private List<JsonNode> eventsSoFar(java.util.function.Predicate<JsonNode> filter) {
        return TopicReader.readAll(TOPIC).stream().filter(r -> r.key().startsWith(api.appId + ":"))
                .map(OfflinePushEventsTest::parse).filter(filter).toList();
    }

    private static boolean matches(ConsumerRecord<String, String> record, String type,
            java.util.function.Predicate<JsonNode> filter) {
        JsonNode event = parse(record);
        return type.equals(event.path("type").asText()) && filter.test(event);
    }

    private static JsonNode parse(ConsumerRecord<String, String> record) {
        try {
            return JSON.readTree(record.value());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean hasPreview(JsonNode event, String text) {
        return text.equals(event.path("preview").asText());
    }

    @Test
    void directMessageNamesTheRecipientItsAddressAndUnreadCount() {
        api.sendText(alice, bob, "first");
        api.sendText(alice, bob, "hi bob, dinner?");
        JsonNode event = events("message.created", 1, e -> hasPreview(e, "hi bob, dinner?")).get(0);
        assertEquals(1, event.path("v").asInt());
        assertEquals("direct", event.path("kind").asText());
        assertEquals(alice, event.path("sender_id").asLong());
        assertEquals(0, event.path("content_type").asInt());
        JsonNode recipients = event.path("recipients");
        assertEquals(1, recipients.size(), "only the peer: never the sender");
        assertEquals(bob, recipients.get(0).path("user_id").asLong());
        assertEquals(alice, recipients.get(0).path("conversation_id").asLong(), "bob sees the conversation as alice");
        assertEquals(2, recipients.get(0).path("unread").asLong(), "both messages are unread: the badge");
        assertEquals(0, recipients.get(0).path("live_devices").size());
    }

    @Test
    void groupMessageGoesToEveryMemberButTheSenderWithTheGroupsName() {
        long group = api.createGroup(alice, List.of(bob, carol));
        api.send(bob, Map.of("content_type", 1, "content", "{\"url\":\"x\"}", "targets", List.of(group), "type", 2,
                "config", "{\"mentions\":[" + carol + "],\"offline_push\":{\"title\":\"Custom\"}}"))
                .body("code", equalTo(200));
        JsonNode event = events("message.created", 1, e -> "group".equals(e.path("kind").asText())).get(0);
        assertEquals(group, event.path("group_id").asLong());
        assertTrue(event.path("group_name").isTextual(), event.toString());
        assertFalse(event.has("preview"), "no text preview for an image");
        assertEquals(List.of(carol), List.of(event.path("mentions").get(0).asLong()));
        assertEquals("Custom", event.path("push").path("title").asText());
        Set<Long> users = new TreeSet<>();
        event.path("recipients").forEach(r -> {
            users.add(r.path("user_id").asLong());
            assertEquals(group, r.path("conversation_id").asLong());
        });
        assertEquals(new TreeSet<>(List.of(alice, carol)), users, "the members but the sender bob");
    }

    @Test
    void systemNotificationComesFromZeroInConversationZero() {
        api.asAdmin().body(MessageApi.text("maintenance tonight", List.of(bob))).post("/message/notify")
                .then().body("code", equalTo(200));
        JsonNode event = events("message.created", 1, e -> hasPreview(e, "maintenance tonight")).get(0);
        assertEquals("system", event.path("kind").asText());
        assertEquals(0, event.path("sender_id").asLong());
        assertEquals(bob, event.path("recipients").get(0).path("user_id").asLong());
        assertEquals(0, event.path("recipients").get(0).path("conversation_id").asLong());
    }

    @Test
    void aLiveDeviceThatDoesNotAcknowledgeIsAnnouncedAfterTheWindow() {
        try (LiveClient bobPhone = LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                api.userToken(bob, 1), null)) {
            api.sendText(alice, bob, "are you there?");
            assertNotNull(bobPhone.next("message", WAIT), "delivered on the socket");
            JsonNode created = events("message.created", 1, e -> hasPreview(e, "are you there?")).get(0);
            assertEquals(List.of(1), ints(created.path("recipients").get(0).path("live_devices")));
            // no ack: after the window (1 s in tests) the device is announced for an OS notification
            JsonNode missed = events("message.unacknowledged", 1, e -> hasPreview(e, "are you there?")).get(0);
            assertEquals(created.path("msg_id").asLong(), missed.path("msg_id").asLong());
            assertEquals(bob, missed.path("recipients").get(0).path("user_id").asLong());
            assertEquals(List.of(1), ints(missed.path("recipients").get(0).path("live_devices")));
        }
    }

    @Test
    void anAcknowledgedMessageIsNotAnnouncedAgain() {
        try (LiveClient bobPhone = LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                api.userToken(bob, 1), null)) {
            api.sendText(alice, bob, "ack me");
            long msgId = bobPhone.next("message", WAIT).path("message").path("msg_id").asLong();
            // announced with bob's live device, the message waits for its ack (the window: 1 s in tests)
            Eventually.until(WAIT, "the first announcement", () -> queueStages(msgId).equals(List.of(1)));
            bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + alice + ",\"msg_id\":" + msgId + "}");
            assertEquals(200, bobPhone.next("ack", WAIT).path("code").asInt());
            // the queue takes rows in due order: once a later message bob leaves unacknowledged is announced so, the
            // acknowledged one's window was checked
            api.sendText(alice, bob, "left unacknowledged");
            events("message.unacknowledged", 1, e -> hasPreview(e, "left unacknowledged"));
        }
        assertEquals(List.of(), eventsSoFar(e -> hasPreview(e, "ack me")
                && "message.unacknowledged".equals(e.path("type").asText())), "acknowledged live: no OS notification");
        Long left = database.read(c -> {
            try (var ps = c.prepareStatement("select count(*) from offline_push_queue where app_id = ?")) {
                ps.setString(1, api.appId);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
        assertEquals(0L, left, "the queue is empty once every row was announced");
    }

    @Test
    void aMessageAcknowledgedBeforeThePublishersPassDoesNotWaitForTheWindow() throws InterruptedException {
        Map<String, Long> ids = new HashMap<>();
        try (LiveClient bobPhone = LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                api.userToken(bob, 1), null)) {
            // the test holds the publisher's lock, so the ack surely commits before the message's first pass
            database.inTransaction(lock -> {
                AdvisoryLocks.xactLock(lock, PUBLISHER_LOCK);
                api.sendText(alice, bob, "acked early");
                JsonNode frame = bobPhone.next("message", WAIT);
                ids.put("msg", frame.path("message").path("msg_id").asLong());
                bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + alice + ",\"msg_id\":" + ids.get("msg")
                        + "}");
                assertEquals(200, bobPhone.next("ack", WAIT).path("code").asInt());
                return null;
            });
            // the device is still connected at the first pass
            JsonNode created = events("message.created", 1, e -> hasPreview(e, "acked early")).get(0);
            assertEquals(List.of(1), ints(created.path("recipients").get(0).path("live_devices")),
                    "announced with its live device, so push-service records it as received live");
        }
        // before the change the row waited the whole window (1 s in tests) in its second stage
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            List<Integer> stages = queueStages(ids.get("msg"));
            assertFalse(stages.contains(1), "an acknowledged message never waits for the ack window");
            if (stages.isEmpty()) {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "the queue row was not handled");
            Thread.sleep(5);
        }
    }

    @Test
    void aRecalledMessageAnnouncedBeforeIsAnnouncedAsRecalledWithTheBadgeWithoutIt() {
        api.sendText(alice, bob, "first");
        api.sendText(alice, bob, "recall me");
        JsonNode created = events("message.created", 1, e -> hasPreview(e, "recall me")).get(0);
        long msgId = created.path("msg_id").asLong();
        assertEquals(2, created.path("recipients").get(0).path("unread").asLong());
        assertEquals(200, recall(alice, bob, msgId));

        JsonNode recalled = events("message.recalled", 1, e -> e.path("msg_id").asLong() == msgId).get(0);
        assertEquals("direct", recalled.path("kind").asText());
        assertEquals(alice, recalled.path("sender_id").asLong());
        JsonNode recipients = recalled.path("recipients");
        assertEquals(1, recipients.size());
        assertEquals(bob, recipients.get(0).path("user_id").asLong());
        assertEquals(alice, recipients.get(0).path("conversation_id").asLong());
        assertEquals(1, recipients.get(0).path("unread").asLong(), "the badge without the recalled message");
        assertTrue(recalled.path("notice_id").asLong() > msgId, "the replacement's own id, newer than the message");
        assertTrue(recalled.path("preview").isMissingNode(), "nothing of the recalled text");
        assertEquals(List.of(), queueStages(msgId), "announced once");
    }

    @Test
    void aMessageRecalledBeforeItsAnnouncementIsNeverAnnounced() throws Exception {
        Map<String, Long> ids = new HashMap<>();
        CompletableFuture<Integer> recalled = database.inTransaction(lock -> {
            AdvisoryLocks.xactLock(lock, PUBLISHER_LOCK);
            api.sendText(alice, bob, "recalled at once");
            List<Number> page = api.page(bob, alice, 0, 10).extract().path("data.messages.msg_id");
            ids.put("msg", page.get(page.size() - 1).longValue());
            // the recall waits for the publisher's lock, which this test holds: it is granted the lock on release,
            // before the publisher's next try, with the message still unannounced
            CompletableFuture<Integer> call = CompletableFuture.supplyAsync(() -> recall(alice, bob, ids.get("msg")));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!waitingForAnAdvisoryLock(lock)) {
                assertTrue(System.nanoTime() < deadline, "the recall did not wait for the publisher's lock");
                LockSupport.parkNanos(5_000_000);
            }
            return call;
        });
        assertEquals(200, recalled.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        api.sendText(alice, bob, "after the recall");
        JsonNode after = events("message.created", 1, e -> hasPreview(e, "after the recall")).get(0);
        assertEquals(1, after.path("recipients").get(0).path("unread").asLong(), "the recalled message never counted");
        // the queue takes rows in due order: an announcement of the recalled message would have come before this one
        assertEquals(List.of(), eventsSoFar(e -> e.path("msg_id").asLong() == ids.get("msg")),
                "neither created nor recalled is announced");
    }

    private boolean waitingForAnAdvisoryLock(Connection c) throws SQLException {
        try (var ps = c.prepareStatement("select count(*) from pg_locks where locktype = 'advisory' and not granted");
                var rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1) > 0;
        }
    }

    private int recall(long sender, long conversation, long msgId) {
        return api.as(sender).body(Map.of("conversation_id", conversation, "msg_id", msgId)).post("/message/recall")
                .then().statusCode(200).extract().path("code");
    }

    private List<Integer> queueStages(long msgId) {
        return database.read(c -> {
            List<Integer> stages = new java.util.ArrayList<>();
            try (var ps = c.prepareStatement("select stage from offline_push_queue where app_id = ? and msg_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, msgId);
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        stages.add(rs.getInt(1));
                    }
                }
            }
            return stages;
        });
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> values = new java.util.ArrayList<>();
        array.forEach(v -> values.add(v.asInt()));
        return values;
    }
}
