package io.imcore.message.offlinepush;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The publisher's unread counts (the badges) equal what GET /message/unread sums over the user's conversations, after
 * every kind of change: messages in, reads, the user's own sends, recalls, a group's messages, a conversation deleted
 * (its floor moved), a membership ended; each compared once the publisher has announced every message and applied every
 * read change of the app.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class UnreadCountsTest extends AppWithUsers {

    private static final long WAIT_NANOS = 15_000_000_000L;

    @Test
    void theBadgeCountFollowsMessagesReadsDeletionsAndGroupsExactly() throws InterruptedException {
        api.sendText(alice, bob, "one");
        api.sendText(alice, bob, "two");
        api.sendText(alice, bob, "three");
        assertCountIsTheSum(bob, 3);

        List<Number> ids = api.page(bob, alice, 0, 10).extract().path("data.messages.msg_id");
        long second = ids.stream().mapToLong(Number::longValue).sorted().skip(1).findFirst().orElseThrow();
        ack(bob, alice, second);
        api.sendText(carol, bob, "from carol"); // a notification after the read: its badge counts the read
        assertCountIsTheSum(bob, 2);

        api.sendText(bob, alice, "my own message never counts for me"); // bob has now read all of alice's
        api.sendText(carol, bob, "again from carol");
        assertCountIsTheSum(bob, 2);

        List<Number> fromCarol = api.page(bob, carol, 0, 10).extract().path("data.messages.msg_id");
        recall(carol, bob, fromCarol.get(0).longValue()); // announced and unread: it leaves the count
        assertCountIsTheSum(bob, 1);
        ack(bob, carol, fromCarol.get(1).longValue()); // reading past it does not take it off again
        api.sendText(alice, bob, "after the recall");
        assertCountIsTheSum(bob, 1);
        recall(alice, bob, lastOf(bob, alice)); // recalled unread, then a fresh count: the sum leaves it out
        forgetCount(bob);
        api.sendText(carol, bob, "counted afresh");
        assertCountIsTheSum(bob, 1);
        ack(bob, carol, lastOf(bob, carol));
        api.sendText(carol, bob, "carol once more");
        api.sendText(carol, bob, "and again");
        assertCountIsTheSum(bob, 2);

        long group = api.createGroup(alice, List.of(bob, carol));
        api.send(carol, MessageApi.toGroup("to the group", group)).body("code", equalTo(200));
        api.send(carol, MessageApi.toGroup("to the group again", group)).body("code", equalTo(200));
        assertCountIsTheSum(bob, 4);

        api.as(bob).queryParam("conversation_id", carol).delete("/message/conversation").then().statusCode(200)
                .body("code", equalTo(200));
        api.send(alice, MessageApi.toGroup("after the deletion", group)).body("code", equalTo(200));
        assertCountIsTheSum(bob, 3);

        api.as(alice).body(Map.of("group_id", group, "user_list", List.of(bob))).post("/group/kick").then()
                .statusCode(200).body("code", equalTo(200));
        api.sendText(carol, bob, "after the kick");
        assertCountIsTheSum(bob, 1);
    }

    /**
     * Once every message of the app is announced and every read change applied, the user's count is the sum
     * GET /message/unread shows, and that sum is {@code expected}.
     */
    private void assertCountIsTheSum(long user, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (pending() > 0) {
            assertTrue(System.nanoTime() < deadline, "the publisher did not announce the app's messages");
            Thread.sleep(10);
        }
        List<Integer> nums = api.unread(user).extract().path("data.num");
        long sum = nums.stream().mapToLong(Integer::longValue).sum();
        assertEquals(expected, sum, "GET /message/unread: " + nums);
        assertEquals(sum, count(user), "the publisher's count against the sum");
    }

    /**
     * The app's messages still queued for a first announcement or for the announcement of their recall, and its read
     * changes not yet applied.
     */
    private long pending() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select (select count(*) from offline_push_queue"
                    + " where app_id = ? and stage <> 1) + (select count(*) from unread_changes where app_id = ?)")) {
                ps.setString(1, api.appId);
                ps.setString(2, api.appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    private long count(long user) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select unread from unread_counts where app_id = ? and user_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, user);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : -1;
                }
            }
        });
    }

    private void recall(long sender, long conversation, long msgId) {
        api.as(sender).body(Map.of("conversation_id", conversation, "msg_id", msgId)).post("/message/recall").then()
                .statusCode(200).body("code", equalTo(200));
    }

    private long lastOf(long viewer, long conversation) {
        List<Number> ids = api.page(viewer, conversation, 0, 100).extract().path("data.messages.msg_id");
        return ids.get(ids.size() - 1).longValue();
    }

    /** The user's count is taken afresh at their next notification, as after a deletion. */
    private void forgetCount(long user) {
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "delete from unread_counts where app_id = ? and user_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, user);
                return ps.executeUpdate();
            }
        });
    }

    private void ack(long viewer, long conversation, long msgId) {
        api.as(viewer).queryParam("conversation_id", conversation).queryParam("device_sn", 0)
                .queryParam("msg_id", msgId).get("/message/ack").then().statusCode(200).body("code", equalTo(200));
    }
}
