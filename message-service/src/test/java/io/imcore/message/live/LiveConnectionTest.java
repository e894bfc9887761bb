package io.imcore.message.live;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The devices' live connection (/ws): authentication, live messages, acknowledgements, presence. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class LiveConnectionTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private LiveClient device(long user, int deviceSn) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId, api.userToken(user, deviceSn), null);
    }

    @Test
    void deviceReceivesALiveMessageAndItsAckMakesItDelivered() {
        try (LiveClient bobPhone = device(bob, 1)) {
            api.sendText(alice, bob, "live hello");
            JsonNode frame = bobPhone.next("message", WAIT);
            assertNotNull(frame, "message frame");
            assertEquals(alice, frame.path("conversation_id").asLong());
            assertEquals("live hello", frame.path("message").path("content").asText());
            assertEquals(alice, frame.path("message").path("from_xid").path("uid").asLong());
            long msgId = frame.path("message").path("msg_id").asLong();

            api.page(alice, bob, 0, 20).body("data.messages[0].status", equalTo("UNREAD"));
            bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + alice + ",\"msg_id\":" + msgId + "}");
            JsonNode ack = bobPhone.next("ack", WAIT);
            assertEquals(200, ack.path("code").asInt(), ack.toString());
            api.page(alice, bob, 0, 20).body("data.messages[0].status", equalTo("DELIVERED"));
            api.page(bob, alice, 0, 20).body("data.messages[0].status", equalTo("DELIVERED"));
            // delivered is not read: still unread until the read receipt
            api.unread(bob).body("data[0].num", equalTo(1));
        }
    }

    @Test
    void acksSentTogetherOnSeveralConversationsAllMakeTheirMessagesDelivered() {
        try (LiveClient bobPhone = device(bob, 1)) {
            api.sendText(alice, bob, "from alice");
            api.sendText(carol, bob, "from carol");
            api.sendText(alice, bob, "from alice again");
            List<String> acks = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                JsonNode frame = bobPhone.next("message", WAIT);
                assertNotNull(frame, "message frame " + i);
                acks.add("{\"type\":\"ack\",\"conversation_id\":" + frame.path("conversation_id").asLong()
                        + ",\"msg_id\":" + frame.path("message").path("msg_id").asLong() + "}");
            }
            acks.forEach(bobPhone::send); // back to back: they may share a group commit (alice's two may not)
            for (int i = 0; i < 3; i++) {
                JsonNode ack = bobPhone.next("ack", WAIT);
                assertNotNull(ack, "ack answer " + i);
                assertEquals(200, ack.path("code").asInt(), ack.toString());
            }
            api.page(bob, alice, 0, 20).body("data.messages.status", contains("DELIVERED", "DELIVERED"));
            api.page(bob, carol, 0, 20).body("data.messages.status", contains("DELIVERED"));
        }
    }

    @Test
    void aConnectionKeepsItsDirectConversationsForAcksButChecksAGroupsMembershipOnEachAck() {
        long group = api.createGroup(alice, List.of(bob, carol));
        try (LiveClient bobPhone = device(bob, 1)) {
            api.send(alice, MessageApi.toGroup("before the kick", group)).body("code", equalTo(200));
            long first = bobPhone.next("message", WAIT).path("message").path("msg_id").asLong();
            bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + group + ",\"msg_id\":" + first + "}");
            assertEquals(200, bobPhone.next("ack", WAIT).path("code").asInt());
            api.as(alice).body(java.util.Map.of("group_id", group, "user_list", List.of(bob))).post("/group/kick")
                    .then().body("code", equalTo(200));
            bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + group + ",\"msg_id\":" + first + "}");
            assertEquals(20002, bobPhone.next("ack", WAIT).path("code").asInt(), "no longer a member");

            for (String text : List.of("one", "two")) { // the second ack uses the conversation the first checked
                api.sendText(alice, bob, text);
                long msgId = bobPhone.next("message", WAIT).path("message").path("msg_id").asLong();
                bobPhone.send("{\"type\":\"ack\",\"conversation_id\":" + alice + ",\"msg_id\":" + msgId + "}");
                assertEquals(200, bobPhone.next("ack", WAIT).path("code").asInt());
                api.page(bob, alice, 0, 20).body("data.messages[-1].status", equalTo("DELIVERED"));
            }
        }
    }

    @Test
    void sendersOtherDevicesGetTheMessageButNotTheSendingDevice() {
        try (LiveClient alicePhone = device(alice, 1); LiveClient aliceTablet = device(alice, 2);
                LiveClient bobPhone = device(bob, 1)) {
            RestAssured.given().header("app_id", api.appId).header("access-token", api.userToken(alice, 1))
                    .contentType("application/json")
                    .body(MessageApi.text("from my phone", List.of(bob))).post("/message/send")
                    .then().body("code", equalTo(200));
            JsonNode onTablet = aliceTablet.next("message", WAIT);
            assertNotNull(onTablet, "the sender's other device gets its own message");
            assertEquals(bob, onTablet.path("conversation_id").asLong(), "seen from alice: the conversation with bob");
            assertNotNull(bobPhone.next("message", WAIT));
            // frames come in order: the sending device's next message is bob's answer, not its own
            api.sendText(bob, alice, "answer");
            assertEquals("answer", alicePhone.next("message", WAIT).path("message").path("content").asText(),
                    "the sending device is not echoed");
        }
    }

    @Test
    void groupMessageReachesOnlineMembers() {
        long group = api.createGroup(alice, List.of(bob, carol));
        try (LiveClient bobPhone = device(bob, 1); LiveClient carolPhone = device(carol, 4)) {
            api.send(alice, MessageApi.toGroup("hi all", group)).body("code", equalTo(200));
            for (LiveClient member : List.of(bobPhone, carolPhone)) {
                JsonNode frame = member.next("message", WAIT);
                assertNotNull(frame);
                assertEquals(group, frame.path("conversation_id").asLong());
                assertEquals("hi all", frame.path("message").path("content").asText());
            }
        }
    }

    @Test
    void systemNotificationArrivesInConversationZero() {
        try (LiveClient bobPhone = device(bob, 1)) {
            api.asAdmin().body(MessageApi.text("system says", List.of(bob))).post("/message/notify")
                    .then().body("code", equalTo(200));
            JsonNode frame = bobPhone.next("message", WAIT);
            assertEquals(0, frame.path("conversation_id").asLong());
            assertEquals(0, frame.path("message").path("from_xid").path("uid").asLong());
        }
    }

    @Test
    void badTokenIsRefusedAndTheConnectionClosed() throws Exception {
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            JsonNode answer = client.auth(api.appId, "not-a-token", 1);
            assertEquals(10008, answer.path("code").asInt());
            assertEquals(4401, client.closed.get(10, TimeUnit.SECONDS));
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            assertEquals(40000, client.auth("no-such-app", api.userToken(bob, 1), 1).path("code").asInt());
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            assertEquals(10010, client.auth(api.appId, api.adminToken(), 1).path("code").asInt(),
                    "admin tokens do not connect devices");
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            assertEquals(10002, client.auth(api.appId, api.userToken(bob), null).path("code").asInt(),
                    "a device_sn is required when the token names none");
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            assertEquals(10002, client.auth(api.appId, api.userToken(bob, 1), 2).path("code").asInt(),
                    "device_sn must match the token's device");
        }
    }

    @Test
    void connectionWithoutAuthIsClosedAndFramesBeforeAuthAreRefused() throws Exception {
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            client.send("{\"type\":\"ping\"}");
            assertNotNull(client.next("pong", WAIT), "ping works before auth");
            assertEquals(4401, client.closed.get(10, TimeUnit.SECONDS), "closed after the auth timeout");
        }
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            client.send("{\"type\":\"ack\",\"conversation_id\":1,\"msg_id\":1}");
            assertEquals(4401, client.closed.get(10, TimeUnit.SECONDS));
        }
        try (LiveClient client = device(bob, 1)) {
            client.send("not json");
            assertEquals(10002, client.next("error", WAIT).path("code").asInt());
            client.send("{\"type\":\"ack\",\"conversation_id\":-1,\"msg_id\":1}");
            assertEquals(10002, client.next("ack", WAIT).path("code").asInt());
        }
    }

    @Test
    void onlineStatusAndPresenceEventsFollowTheConnection() throws Exception {
        api.as(bob).get("/user/online_status").then().body("data.online", equalTo(false));
        try (LiveClient bobPhone = device(bob, 3)) {
            api.as(bob).get("/user/online_status").then().body("data.online", equalTo(true))
                    .body("data.devices.device_sn", contains(3));
            api.asAdmin().header("user_id", bob).get("/user/online_status").then().body("data.online", equalTo(true));
        }
        long deadline = System.currentTimeMillis() + 10_000;
        boolean online = true;
        while (online && System.currentTimeMillis() < deadline) {
            online = api.as(bob).get("/user/online_status").then().extract().path("data.online");
            if (online) {
                Thread.sleep(100);
            }
        }
        assertTrue(!online, "offline after the connection closed");
        String key = api.appId + ":" + bob + ":3";
        var records = TopicReader.await("presence.events", r -> key.equals(r.key()), 2, Duration.ofSeconds(20));
        assertEquals(2, records.size(), "online then offline");
        assertTrue(records.get(0).value().contains("\"device.online\""), records.get(0).value());
        assertTrue(records.get(1).value().contains("\"device.offline\""), records.get(1).value());
    }

    @Test
    void aMessageWhileOfflineIsReadOverHttpAfterwards() {
        api.sendText(alice, bob, "while you were away");
        try (LiveClient bobPhone = device(bob, 1)) {
            // frames come in order: the first message frame is one sent after the connection, not a replay
            api.sendText(alice, bob, "while you are here");
            assertEquals("while you are here",
                    bobPhone.next("message", WAIT).path("message").path("content").asText(), "no replay on connect");
            api.page(bob, alice, 0, 20).body("data.messages.content", contains("while you were away",
                    "while you are here"));
        }
    }
}
