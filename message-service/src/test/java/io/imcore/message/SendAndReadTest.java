package io.imcore.message;

import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class SendAndReadTest {

    @Inject
    Database database;

    MessageApi api;
    long alice;
    long bob;

    @BeforeEach
    void setUp() {
        api = MessageApi.newApp(database);
        alice = api.newUser();
        bob = api.newUser();
    }

    @Test
    void textToUserAppearsInBothViewsOfTheConversation() {
        Map<String, Object> body = MessageApi.text("hello bob", List.of(bob));
        body.put("ext", "{\"k\":1}");
        api.send(alice, body).body("code", equalTo(200)).body("data", equalTo(true)).body("message", nullValue());

        api.page(bob, alice, 0, 20)
                .body("code", equalTo(200))
                .body("data.messages", hasSize(1))
                .body("data.messages_size", equalTo(1))
                .body("data.is_last", equalTo(true))
                .body("data.messages[0].content", equalTo("hello bob"))
                .body("data.messages[0].ctype", equalTo("TEXT"))
                .body("data.messages[0].status", equalTo("UNREAD"))
                .body("data.messages[0].ext", equalTo("{\"k\":1}"))
                .body("data.messages[0].set_ext", equalTo(true))
                .body("data.messages[0].set_attachment", equalTo(false))
                .body("data.messages[0].from_xid.uid", equalTo((int) alice))
                .body("data.messages[0].to_xid.uid", equalTo((int) bob));
        // the sender sees the same message, with the peer's receipt as its status
        api.page(alice, bob, 0, 20).body("data.messages[0].content", equalTo("hello bob"))
                .body("data.messages[0].status", equalTo("UNREAD"));
        api.unread(bob).body("data", hasSize(1)).body("data[0].conversation_id.uid", equalTo((int) alice))
                .body("data[0].num", equalTo(1));
        api.unread(alice).body("data[0].num", equalTo(0));
    }

    @Test
    void pagesWalkBackwardsWithoutGapsOrRepeats() {
        for (int i = 0; i < 25; i++) {
            api.sendText(i % 2 == 0 ? alice : bob, i % 2 == 0 ? bob : alice, "m" + i);
        }
        List<String> seen = new ArrayList<>();
        long start = 0;
        List<Boolean> lasts = new ArrayList<>();
        do {
            var page = api.page(bob, alice, start, 10).extract();
            List<String> contents = page.path("data.messages.content");
            List<Number> ids = page.path("data.messages.msg_id");
            for (int i = 1; i < ids.size(); i++) {
                assertTrue(ids.get(i).longValue() > ids.get(i - 1).longValue(), "ascending within a page");
            }
            seen.addAll(0, contents);
            boolean last = page.path("data.is_last");
            lasts.add(last);
            start = ((Number) page.path("data.next_msg_id")).longValue();
            assertEquals(ids.isEmpty() ? 0 : ids.get(0).longValue(), start, "next_msg_id is the smallest in the page");
        } while (!lasts.get(lasts.size() - 1));
        assertEquals(List.of(false, false, true), lasts);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            expected.add("m" + i);
        }
        assertEquals(expected, seen);
    }

    @Test
    void ackMarksReadUpToTheMessageAndNeverMovesBack() {
        api.sendText(alice, bob, "one");
        api.sendText(alice, bob, "two");
        api.sendText(alice, bob, "three");
        List<Number> ids = api.page(bob, alice, 0, 20).extract().path("data.messages.msg_id");
        ack(bob, alice, ids.get(1).longValue()).body("data", equalTo(true));
        api.page(bob, alice, 0, 20).body("data.messages.status", contains("READ", "READ", "UNREAD"));
        api.page(alice, bob, 0, 20).body("data.messages.status", contains("READ", "READ", "UNREAD"));
        api.unread(bob).body("data[0].num", equalTo(1));
        ack(bob, alice, ids.get(0).longValue()).body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(1));
        ack(bob, alice, ids.get(2).longValue());
        ack(bob, alice, ids.get(2).longValue()).body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(0));
    }

    @Test
    void deletingHidesHistoryForTheCallerOnlyUntilANewMessage() {
        api.sendText(alice, bob, "old");
        api.as(bob).queryParam("conversation_id", alice).delete("/message/conversation").then()
                .body("code", equalTo(200)).body("data", equalTo(true));
        api.page(bob, alice, 0, 20).body("data.messages", hasSize(0)).body("data.is_last", equalTo(true));
        api.unread(bob).body("data", hasSize(0));
        api.page(alice, bob, 0, 20).body("data.messages.content", contains("old"));
        api.sendText(alice, bob, "new");
        api.page(bob, alice, 0, 20).body("data.messages.content", contains("new"));
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    @Test
    void unreadListsMostRecentConversationFirst() {
        long carol = api.newUser();
        api.sendText(alice, bob, "from alice");
        api.sendText(carol, bob, "from carol");
        api.sendText(carol, bob, "again");
        api.unread(bob).body("data.conversation_id.uid", contains((int) carol, (int) alice))
                .body("data.num", contains(2, 1));
        api.sendText(alice, bob, "alice again");
        api.unread(bob).body("data.conversation_id.uid", contains((int) alice, (int) carol));
    }

    @Test
    void notificationsComeFromTheSystemIntoConversationZero() {
        Map<String, Object> body = MessageApi.text("maintenance tonight", List.of(alice, bob));
        api.asAdmin().body(body).post("/message/notify").then().body("code", equalTo(200));
        api.page(bob, 0, 0, 20).body("data.messages[0].content", equalTo("maintenance tonight"))
                .body("data.messages[0].from_xid.uid", equalTo(0));
        api.unread(alice).body("data[0].conversation_id.uid", equalTo(0)).body("data[0].num", equalTo(1));
        api.as(alice).body(body).put("/message/notify").then().body("code", equalTo(10010));
    }

    private io.restassured.response.ValidatableResponse ack(long viewer, long conversation, long msgId) {
        return api.as(viewer).queryParam("conversation_id", conversation).queryParam("device_sn", 0)
                .queryParam("msg_id", msgId).get("/message/ack").then().statusCode(200);
    }
}
