package io.imcore.message.live;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.message.AppWithUsers;
import io.imcore.message.presence.PresenceService;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** Typing frames (issue 49 point 6): relayed, not stored, one per device per interval, not in large groups. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TypingTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    AgroalDataSource dataSource;

    @Inject
    PresenceService presence;

    @Test
    void typingReachesThePeerAndNotTheSender() {
        try (LiveClient alicePhone = device(alice); LiveClient bobPhone = device(bob)) {
            alicePhone.send(typing(bob));
            JsonNode seen = bobPhone.next("typing", WAIT);
            assertNotNull(seen, "bob sees alice typing");
            assertEquals(alice, seen.path("conversation_id").asLong(), "the address as bob sees it");
            assertEquals(alice, seen.path("user_id").asLong());

            bobPhone.send(typing(alice));
            JsonNode back = alicePhone.next("typing", WAIT);
            assertNotNull(back, "alice sees bob typing");
            assertEquals(bob, back.path("user_id").asLong(), "alice's first typing frame is bob's, not her own echo");
        }
    }

    @Test
    void aSecondFrameWithinTheIntervalIsRefusedAndNotRelayed() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        try (LiveClient alicePhone = device(alice); LiveClient bobPhone = device(bob);
                LiveClient carolPhone = device(carol)) {
            alicePhone.send(typing(groupId));
            JsonNode first = bobPhone.next("typing", WAIT);
            assertEquals(groupId, first.path("conversation_id").asLong());
            assertEquals(alice, first.path("user_id").asLong());

            alicePhone.send(typing(groupId));
            JsonNode refused = alicePhone.next("typing", WAIT);
            assertNotNull(refused, "the second frame is answered");
            assertEquals(10015, refused.path("code").asInt(), refused.toString());

            carolPhone.send(typing(groupId));
            JsonNode next = bobPhone.next("typing", WAIT);
            assertNotNull(next, "carol's typing frame");
            assertEquals(carol, next.path("user_id").asLong(), "alice's refused frame never reached bob");
        }
    }

    @Test
    void aGroupOverTheAppsTypingSizeIsRefusedWith20005() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        api.asAdmin().body(Map.of("typing_max_members", 2)).post("/app/group_limits").then()
                .body("code", equalTo(200)).body("data.typing_max_members", equalTo(2));
        try (LiveClient alicePhone = device(alice)) {
            alicePhone.send(typing(groupId));
            JsonNode refused = alicePhone.next("typing", WAIT);
            assertNotNull(refused, "refusal");
            assertEquals(20005, refused.path("code").asInt(), refused.toString());
        }
        api.asAdmin().get("/app/group_limits").then().body("data.typing_max_members", equalTo(2))
                .body("data.receipt_frames_max_members", equalTo(200));
    }

    @Test
    void aStrangerToTheGroupIsRefusedWith20002() {
        long groupId = api.createGroup(alice, List.of(bob));
        try (LiveClient carolPhone = device(carol)) {
            carolPhone.send(typing(groupId));
            assertEquals(20002, carolPhone.next("typing", WAIT).path("code").asInt());
        }
    }

    @Test
    void typingCrossesToTheReplicaHoldingThePeerAndBackInANotify() throws Exception {
        String otherReplica = "typing-test-replica";
        try (Connection listening = dataSource.getConnection(); Connection admin = dataSource.getConnection()) {
            listening.setAutoCommit(true);
            admin.setAutoCommit(true);
            try (Statement s = listening.createStatement()) {
                s.execute("LISTEN \"" + LiveRouter.channel(otherReplica) + "\"");
            }
            // bob's phone is connected to another replica, alive
            try (Statement s = admin.createStatement()) {
                s.execute("insert into replicas (replica_id, heartbeat_at) values ('" + otherReplica + "', now())"
                        + " on conflict (replica_id) do update set heartbeat_at = now()");
                s.execute("insert into presence (app_id, user_id, device_sn, replica_id, connection_id) values ('"
                        + api.appId + "', " + bob + ", 1, '" + otherReplica + "', 'test')");
            }
            try (LiveClient alicePhone = device(alice)) {
                alicePhone.send(typing(bob));
                PGNotification[] notified = null;
                long deadline = System.currentTimeMillis() + WAIT.toMillis();
                while ((notified == null || notified.length == 0) && System.currentTimeMillis() < deadline) {
                    notified = listening.unwrap(PGConnection.class).getNotifications(500);
                }
                assertNotNull(notified, "the other replica is told");
                JsonNode payload = new ObjectMapper().readTree(notified[0].getParameter());
                assertEquals(api.appId, payload.path("a").asText());
                assertEquals(List.of(bob), List.of(payload.path("u").get(0).asLong()));
                JsonNode frame = new ObjectMapper().readTree(payload.path("f").asText());
                assertEquals("typing", frame.path("type").asText());
                assertEquals(alice, frame.path("user_id").asLong());

                // and what another replica announces to this one reaches the device here
                try (Statement s = admin.createStatement()) {
                    s.execute("delete from presence where replica_id = '" + otherReplica + "'");
                    s.execute("select pg_notify('" + LiveRouter.channel(presence.replicaId()) + "', '"
                            + payload.toString().replace("'", "''").replace("[" + bob + "]", "[" + alice + "]")
                            + "')");
                }
                JsonNode arrived = alicePhone.next("typing", WAIT);
                assertNotNull(arrived, "the announced frame is written here");
                assertEquals(alice, arrived.path("user_id").asLong());
            }
        }
    }

    private LiveClient device(long user) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId, api.userToken(user, 1), null);
    }

    private static String typing(long conversationId) {
        return "{\"type\":\"typing\",\"conversation_id\":" + conversationId + "}";
    }
}
