package io.imcore.message.sync;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeType;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * GET /message/sync and the /ws replay (docs/api-decisions.md "Sync", docs/live-protocol.md "Replay"): every change
 * of a user's devices in one order, paged from an opaque cursor, never skipping a change that commits later.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class SyncTest extends AppWithUsers {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    AgroalDataSource dataSource;
    @Inject
    ChangeLog changeLog;
    @Inject
    SyncService syncService;

    private JsonNode sync(long user, String cursor, Integer limit) {
        var request = api.as(user);
        if (cursor != null) {
            request = request.queryParam("cursor", cursor);
        }
        if (limit != null) {
            request = request.queryParam("limit", limit);
        }
        return read(request.get("/message/sync").then().statusCode(200).extract().asString());
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<JsonNode> events(JsonNode answer) {
        assertEquals(200, answer.path("code").asInt(), answer.toString());
        List<JsonNode> events = new ArrayList<>();
        answer.path("data").path("events").forEach(events::add);
        return events;
    }

    @Test
    void pagesFollowTheCursorUntilHasMoreIsFalse() {
        for (int i = 0; i < 5; i++) {
            api.sendText(alice, bob, "m" + i);
        }
        List<String> contents = new ArrayList<>();
        String cursor = null;
        boolean more = true;
        int pages = 0;
        while (more) {
            JsonNode answer = sync(bob, cursor, 2);
            for (JsonNode event : events(answer)) {
                assertEquals("message", event.path("type").asText());
                assertEquals(alice, event.path("conversation_id").asLong());
                assertEquals("UNREAD", event.path("message").path("status").asText());
                assertTrue(event.path("cursor").isTextual());
                contents.add(event.path("message").path("content").asText());
            }
            more = answer.path("data").path("has_more").asBoolean();
            cursor = answer.path("data").path("cursor").asText();
            pages++;
        }
        assertEquals(List.of("m0", "m1", "m2", "m3", "m4"), contents);
        assertEquals(3, pages, "2 + 2 + 1");
        assertTrue(events(sync(bob, cursor, null)).isEmpty(), "nothing after the last cursor");
        api.sendText(bob, alice, "reply");
        List<JsonNode> after = events(sync(bob, cursor, null));
        assertEquals(1, after.size(), "the sender's own devices learn of their message too");
        assertEquals("reply", after.get(0).path("message").path("content").asText());
        assertEquals(alice, after.get(0).path("conversation_id").asLong());
        // the sender's log has its own messages, with the status its pages show (the peer's receipt)
        List<JsonNode> alices = events(sync(alice, null, 500));
        assertEquals(6, alices.size());
        assertEquals(bob, alices.get(0).path("conversation_id").asLong());
        assertEquals("READ", alices.get(0).path("message").path("status").asText(), "bob replied: he read them");
    }

    @Test
    void aWriterThatCommitsLaterCannotTakeAPositionBeforeOneStillOpen() throws Exception {
        api.sendText(alice, bob, "before");
        String cursor = sync(bob, null, null).path("data").path("cursor").asText();
        try (Connection first = dataSource.getConnection()) {
            first.setAutoCommit(false);
            changeLog.append(first, List.of(change(bob, "{\"n\":1}")));
            // a second writer to bob starts after the first and tries to commit first
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> database.inTransaction(c -> {
                changeLog.append(c, List.of(change(bob, "{\"n\":2}")));
                return null;
            }));
            awaitWaitingOnALock();
            assertFalse(second.isDone(), "the second writer waits for the first's lock on bob's head");
            assertTrue(events(sync(bob, cursor, null)).isEmpty(), "a reader sees neither while the first is open");
            first.commit();
            second.get();
        }
        List<JsonNode> read = events(sync(bob, cursor, null));
        assertEquals(2, read.size());
        assertEquals(1, read.get(0).path("n").asInt(), "the first writer's change first, then the second's");
        assertEquals(2, read.get(1).path("n").asInt());
        assertEquals("read", read.get(0).path("type").asText());
    }

    private Change change(long user, String payload) {
        return new Change(api.appId, user, ChangeType.READ, alice, 0, 0, payload);
    }

    /** Until a backend of this database waits on a lock (the second writer). */
    private void awaitWaitingOnALock() throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                        + " and query like 'insert into sync_heads%'")) {
            while (System.currentTimeMillis() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("the second writer never waited on a lock");
    }

    @Test
    void aCursorWhoseNextChangeWasSweptAnswersItsOwnCode() throws Exception {
        for (int i = 0; i < 3; i++) {
            api.sendText(alice, bob, "old" + i);
        }
        List<JsonNode> all = events(sync(bob, null, null));
        String atFirst = all.get(0).path("cursor").asText();
        String atSecond = all.get(1).path("cursor").asText();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "update sync_events set created_at = now() - interval '31 days' where app_id = ? and user_id = ?"
                        + " and position <= (select min(position) + 1 from sync_events where app_id = ? and user_id = ?)")) {
            ps.setString(1, api.appId);
            ps.setLong(2, bob);
            ps.setString(3, api.appId);
            ps.setLong(4, bob);
            assertEquals(2, ps.executeUpdate());
        }
        syncService.sweep();
        JsonNode expired = sync(bob, atFirst, null);
        assertEquals(21003, expired.path("code").asInt(), expired.toString());
        assertTrue(expired.path("message").asText().startsWith("cursor:"), expired.toString());
        List<JsonNode> kept = events(sync(bob, atSecond, null));
        assertEquals(List.of("old2"), kept.stream().map(e -> e.path("message").path("content").asText()).toList(),
                "the change after the second is kept: its cursor still works");
        assertEquals(1, events(sync(bob, null, null)).size(), "without a cursor: from the oldest kept");
    }

    @Test
    void anotherUsersCursorAndBadInputAreRefused() {
        api.sendText(alice, bob, "for bob");
        String bobs = sync(bob, null, null).path("data").path("cursor").asText();
        assertEquals(21003, sync(carol, bobs, null).path("code").asInt());
        MessageApi other = MessageApi.newApp(database);
        long stranger = other.newUser();
        other.as(stranger).queryParam("cursor", bobs).get("/message/sync").then()
                .body("code", equalTo(21003));
        api.as(bob).queryParam("cursor", "not a cursor!").get("/message/sync").then()
                .body("code", equalTo(10002)).body("message", containsString("cursor"));
        api.as(bob).queryParam("limit", 501).get("/message/sync").then()
                .body("code", equalTo(10002)).body("message", containsString("limit"));
        api.as(bob).queryParam("limit", 0).get("/message/sync").then().body("code", equalTo(10002));
        // an admin reads a user's log acting as the user
        api.asAdmin().header("user_id", bob).get("/message/sync").then().body("code", equalTo(200))
                .body("data.events[0].message.content", equalTo("for bob"));
    }

    @Test
    void recentEventsAreTheNewestOnesAndTheirCursorStartsAtTheHead() {
        for (int i = 0; i < 4; i++) {
            api.sendText(alice, bob, "r" + i);
        }
        JsonNode answer = read(api.as(bob).queryParam("limit", 2).get("/message/recent_events").then()
                .statusCode(200).extract().asString());
        List<String> contents = events(answer).stream().map(e -> e.path("message").path("content").asText()).toList();
        assertEquals(List.of("r2", "r3"), contents, "the newest two, oldest first");
        String cursor = answer.path("data").path("cursor").asText();
        assertEquals(events(answer).get(1).path("cursor").asText(), cursor, "the newest event's cursor");
        assertTrue(events(sync(bob, cursor, null)).isEmpty(), "nothing after it");
        // support staff read a user's newest events acting as the user
        api.asAdmin().header("user_id", bob).get("/message/recent_events").then().body("code", equalTo(200))
                .body("data.events.size()", equalTo(4)).body("data.has_more", equalTo(false));
        api.as(bob).queryParam("limit", 0).get("/message/recent_events").then().body("code", equalTo(10002))
                .body("message", containsString("limit"));
        api.as(carol).get("/message/recent_events").then().body("code", equalTo(200))
                .body("data.events.size()", equalTo(0));
    }

    @Test
    void groupChangesAndMessagesReachEveryMembersLog() {
        long group = api.createGroup(alice, List.of(bob, carol));
        List<JsonNode> bobs = events(sync(bob, null, null));
        assertEquals(1, bobs.size());
        assertEquals("group", bobs.get(0).path("type").asText());
        assertEquals(group, bobs.get(0).path("conversation_id").asLong());
        assertEquals("created", bobs.get(0).path("change").asText(), bobs.toString());
        assertEquals(group, bobs.get(0).path("group_id").asLong());
        String cursor = bobs.get(0).path("cursor").asText();

        api.send(alice, MessageApi.toGroup("hello group", group)).body("code", equalTo(200));
        api.as(alice).body("{\"group_id\":" + group + ",\"user_list\":[" + carol + "]}").post("/group/kick").then()
                .body("code", equalTo(200));
        List<JsonNode> after = events(sync(bob, cursor, null));
        assertEquals(List.of("message", "group"), after.stream().map(e -> e.path("type").asText()).toList());
        assertEquals(group, after.get(0).path("conversation_id").asLong());
        assertEquals("hello group", after.get(0).path("message").path("content").asText());
        assertEquals("members_removed", after.get(1).path("change").asText());
        assertEquals("kicked", after.get(1).path("reason").asText());
        assertEquals(carol, after.get(1).path("user_ids").get(0).asLong());
        assertFalse(after.get(0).has("fields") || after.get(1).has("fields"), "a change's fields beside the event's");
        List<JsonNode> carols = events(sync(carol, null, null));
        assertEquals(List.of("group", "message", "group"),
                carols.stream().map(e -> e.path("type").asText()).toList(), "carol learns she was kicked");
        List<JsonNode> alices = events(sync(alice, null, null));
        assertEquals("READ", alices.get(1).path("message").path("status").asText(), "own group message");
    }

    @Test
    void aReadOnOneDeviceReachesTheOthersLiveAndInTheLog() {
        api.sendText(alice, bob, "read me");
        long msgId = events(sync(bob, null, null)).get(0).path("message").path("msg_id").asLong();
        String cursor = sync(bob, null, null).path("data").path("cursor").asText();
        try (LiveClient tablet = device(bob, 2, null)) {
            api.as(bob, 1).queryParam("conversation_id", alice).queryParam("msg_id", msgId).get("/message/ack")
                    .then().body("code", equalTo(200));
            JsonNode frame = tablet.next("read", WAIT);
            assertNotNull(frame, "the tablet learns of the phone's read");
            assertEquals(alice, frame.path("conversation_id").asLong());
            assertEquals(msgId, frame.path("msg_id").asLong());
            assertTrue(frame.path("cursor").isTextual());
        }
        List<JsonNode> after = events(sync(bob, cursor, null));
        assertEquals(1, after.size());
        assertEquals("read", after.get(0).path("type").asText());
        assertEquals(msgId, after.get(0).path("msg_id").asLong());
        api.as(bob).queryParam("conversation_id", alice).delete("/message/conversation").then()
                .body("code", equalTo(200));
        List<JsonNode> deleted = events(sync(bob, after.get(0).path("cursor").asText(), null));
        assertEquals("conversation_deleted", deleted.get(0).path("type").asText());
        assertEquals(alice, deleted.get(0).path("conversation_id").asLong());
    }

    @Test
    void aConnectionWithACursorGetsWhatItMissedThenLiveEachOnce() {
        api.sendText(alice, bob, "seen");
        String cursor = sync(bob, null, null).path("data").path("cursor").asText();
        for (int i = 0; i < 120; i++) { // more than one replay page
            api.sendText(alice, bob, "missed" + i);
        }
        try (LiveClient phone = device(bob, 1, cursor)) {
            api.sendText(carol, bob, "live");
            List<String> got = new ArrayList<>();
            String last = cursor;
            while (got.size() < 121) {
                JsonNode frame = phone.next("message", WAIT);
                assertNotNull(frame, "frame " + got.size());
                got.add(frame.path("message").path("content").asText());
                last = frame.path("cursor").asText();
            }
            for (int i = 0; i < 120; i++) {
                assertEquals("missed" + i, got.get(i), "the replay in order");
            }
            assertEquals("live", got.get(120));
            api.sendText(alice, bob, "marker");
            JsonNode marker = phone.next("message", WAIT);
            assertEquals("marker", marker.path("message").path("content").asText(), "nothing doubled before it");
            assertTrue(events(sync(bob, last, null)).size() == 1, "the frames' cursors are the log's");
        }
    }

    @Test
    void anExpiredOrForeignCursorFailsTheAuth() {
        api.sendText(alice, bob, "x");
        String bobs = sync(bob, null, null).path("data").path("cursor").asText();
        try (LiveClient carolPhone = LiveClient.connect("localhost", RestAssured.port)) {
            carolPhone.send(authFrame(carol, 1, bobs));
            JsonNode answer = carolPhone.next("auth", WAIT);
            assertEquals(21003, answer.path("code").asInt(), answer.toString());
        }
        try (LiveClient bobPhone = LiveClient.connect("localhost", RestAssured.port)) {
            bobPhone.send(authFrame(bob, 1, "%%%"));
            assertEquals(10002, bobPhone.next("auth", WAIT).path("code").asInt());
        }
    }

    private String authFrame(long user, int deviceSn, String cursor) {
        return "{\"type\":\"auth\",\"app_id\":\"" + api.appId + "\",\"token\":\"" + api.userToken(user, deviceSn)
                + "\",\"device_sn\":" + deviceSn + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}";
    }

    private LiveClient device(long user, int deviceSn, String cursor) {
        LiveClient client = LiveClient.connect("localhost", RestAssured.port);
        client.send(authFrame(user, deviceSn, cursor));
        JsonNode answer = client.next("auth", WAIT);
        assertEquals(200, answer.path("code").asInt(), String.valueOf(answer));
        return client;
    }
}
