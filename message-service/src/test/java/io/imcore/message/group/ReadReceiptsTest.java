package io.imcore.message.group;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Read receipts in groups (issue 49 point 5): GET /message/receipts and the senders' read frames. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ReadReceiptsTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ReadFrames readFrames;

    @Test
    void theSenderSeesWhoReadItsMessageInAThreeMemberGroup() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        long msgId = send(alice, groupId, "who read this?");

        JsonPath before = receipts(api.as(alice), groupId, msgId).extract().jsonPath();
        assertEquals(0, before.getInt("data.read"));
        assertEquals(2, before.getInt("data.unread"));
        assertEquals(List.of(), before.getList("data.read_users"));
        assertEquals(sorted(bob, carol), longs(before.getList("data.unread_users")));

        ack(bob, groupId, msgId);
        JsonPath after = receipts(api.as(alice), groupId, msgId).extract().jsonPath();
        assertEquals(1, after.getInt("data.read"));
        assertEquals(1, after.getInt("data.unread"));
        assertEquals(List.of(bob), longs(after.getList("data.read_users")));
        assertEquals(List.of(carol), longs(after.getList("data.unread_users")));
        assertNull(after.get("data.next_user_id"));

        // an admin token reads them too, paged by user id
        JsonPath first = receipts(api.asAdmin().queryParam("limit", 1), groupId, msgId).extract().jsonPath();
        assertEquals(1, first.getInt("data.read"), "the counts cover every member, not the page");
        long next = first.getLong("data.next_user_id");
        assertEquals(sorted(bob, carol).get(0), next);
        JsonPath second = receipts(api.asAdmin().queryParam("limit", 1).queryParam("after_user_id", next), groupId,
                msgId).extract().jsonPath();
        assertEquals(sorted(bob, carol).get(1), second.getList("data.read_users").isEmpty()
                ? asLong(second.getList("data.unread_users").get(0)) : asLong(second.getList("data.read_users").get(0)));
        assertNull(second.get("data.next_user_id"));

        // a member who joins later is not counted
        long dave = api.newUser();
        api.as(alice).body(Map.of("group_id", groupId, "user_list", List.of(dave))).post("/group/invite").then()
                .body("code", equalTo(200));
        receipts(api.as(alice), groupId, msgId).body("data.read", equalTo(1)).body("data.unread", equalTo(1));
    }

    @Test
    void othersAreRefusedWithTheirOwnCodes() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        long msgId = send(alice, groupId, "mine");
        long stranger = api.newUser();
        receipts(api.as(stranger), groupId, msgId).body("code", equalTo(20002));
        receipts(api.as(bob), groupId, msgId).body("code", equalTo(20004));
        receipts(api.as(alice), groupId, msgId + 1_000_000).body("code", equalTo(10002))
                .body("message", org.hamcrest.Matchers.startsWith("msg_id:"));
        receipts(api.as(alice), groupId + 1, msgId).body("code", equalTo(20001));
    }

    @Test
    void aWholeGroupReadingWithinAWindowReachesTheSenderAsOneFrame() {
        List<Long> readers = new ArrayList<>(List.of(bob, carol));
        for (int i = 0; i < 6; i++) {
            readers.add(api.newUser());
        }
        long groupId = api.createGroup(alice, readers);
        long msgId = send(alice, groupId, "read me, all of you");
        try (LiveClient alicePhone = device(alice)) {
            readers.forEach(reader -> ack(reader, groupId, msgId));
            readFrames.flush(); // the window ends (in tests it is an hour: the test ends it)
            JsonNode frame = alicePhone.next("read", WAIT);
            assertNotNull(frame, "read frame");
            assertEquals(groupId, frame.path("conversation_id").asLong());
            Map<Long, Long> readUpTo = new HashMap<>();
            frame.path("reads").forEach(r -> readUpTo.put(r.path("user_id").asLong(), r.path("msg_id").asLong()));
            assertEquals(new java.util.HashSet<>(readers), readUpTo.keySet(), "every reader in the one frame");
            assertTrue(readUpTo.values().stream().allMatch(m -> m == msgId), readUpTo.toString());
        }
    }

    @Test
    void aGroupOverTheAppsReceiptSizeSendsNoReadFrames() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        long msgId = send(alice, groupId, "big group");
        try (LiveClient alicePhone = device(alice)) {
            api.asAdmin().body(Map.of("receipt_frames_max_members", 2)).post("/app/group_limits").then()
                    .body("data.receipt_frames_max_members", equalTo(2));
            ack(bob, groupId, msgId);
            api.asAdmin().body(Map.of("receipt_frames_max_members", 3)).post("/app/group_limits").then()
                    .body("code", equalTo(200));
            ack(carol, groupId, msgId);
            readFrames.flush();
            JsonNode frame = alicePhone.next("read", WAIT);
            assertNotNull(frame, "carol's read frame");
            assertEquals(1, frame.path("reads").size(), "bob read while the group was over the size: " + frame);
            assertEquals(carol, frame.path("reads").get(0).path("user_id").asLong());
        }
        // receipts over HTTP work whatever the size
        receipts(api.as(alice), groupId, msgId).body("data.read", equalTo(2));
    }

    private LiveClient device(long user) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId, api.userToken(user, 1), null);
    }

    /** Sends and answers the new message's id (a send answers true; the sender's page names it). */
    private long send(long from, long groupId, String content) {
        api.send(from, MessageApi.toGroup(content, groupId)).body("code", equalTo(200));
        Number msgId = api.page(from, groupId, 0, 1).extract().path("data.messages[0].msg_id");
        return msgId.longValue();
    }

    private void ack(long reader, long groupId, long msgId) {
        api.as(reader).queryParam("conversation_id", groupId).queryParam("msg_id", msgId).get("/message/ack").then()
                .body("code", equalTo(200));
    }

    private static ValidatableResponse receipts(io.restassured.specification.RequestSpecification caller,
            long groupId, long msgId) {
        return caller.queryParam("group_id", groupId).queryParam("msg_id", msgId).get("/message/receipts").then()
                .statusCode(200);
    }

    private static List<Long> sorted(long a, long b) {
        return List.of(Math.min(a, b), Math.max(a, b));
    }

    private static List<Long> longs(List<?> numbers) {
        return numbers.stream().map(ReadReceiptsTest::asLong).toList();
    }

    private static long asLong(Object number) {
        return ((Number) number).longValue();
    }
}
