package io.imcore.message.revision;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import io.restassured.specification.RequestSpecification;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** POST /message/recall and /message/edit: who may, the app's windows, what pages, unread and devices then show. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class RecallEditTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void theSenderRecallsAndPagesShowTheMessageRecalledWithNothingOfWhatItSaid() {
        Map<String, Object> body = MessageApi.text("sent by mistake", List.of(bob));
        body.put("ext", "{\"k\":\"v\"}");
        body.put("attachment", "{\"url\":\"https://example.com/a.png\"}");
        api.send(alice, body).body("code", equalTo(200));
        api.sendText(alice, bob, "kept");
        long msgId = newestButOne(bob, alice);

        JsonPath answer = recall(alice, bob, msgId);
        assertEquals(200, answer.getInt("code"), answer.prettify());
        assertTrue(answer.getBoolean("data"));
        for (long[] viewer : new long[][] {{bob, alice}, {alice, bob}}) {
            api.page(viewer[0], viewer[1], 0, 20)
                    .body("data.messages[0].msg_id", equalTo((int) msgId))
                    .body("data.messages[0].status", equalTo("RECALLED"))
                    .body("data.messages[0].content", equalTo(""))
                    .body("data.messages[0].attachment", nullValue())
                    .body("data.messages[0].ext", nullValue())
                    .body("data.messages[1].content", equalTo("kept"));
        }
        assertEquals(List.of("", "kept"), stored(alice, bob), "the text is not kept in the row");
        assertEquals(answer.prettify(), recall(alice, bob, msgId).prettify(), "recalling again: the same answer");
    }

    @Test
    void anotherUserCannotRecallAndAnUnknownMessageIsRefused() {
        long group = api.createGroup(alice, List.of(bob, carol));
        api.send(alice, MessageApi.toGroup("mine", group)).body("code", equalTo(200));
        long msgId = newest(bob, group);
        assertEquals(22001, recall(carol, group, msgId).getInt("code"), "a member who did not send it");
        assertEquals(22001, recall(bob, group, msgId).getInt("code"));
        JsonPath unknown = recall(alice, group, msgId + 1_000_000);
        assertEquals(10002, unknown.getInt("code"));
        assertEquals("msg_id: no such message in this conversation", unknown.getString("message"));
        long outsider = api.newUser();
        assertEquals(20002, recall(outsider, group, msgId).getInt("code"), "not a member of the group");
        api.page(bob, group, 0, 20).body("data.messages[0].status", equalTo("UNREAD"))
                .body("data.messages[0].content", equalTo("mine"));
    }

    @Test
    void pastTheAppsWindowOnlyAnAdminRecalls() {
        api.sendText(alice, bob, "late");
        long msgId = newest(bob, alice);
        assertEquals(200, recall(alice, bob, msgId).getInt("code"), "within the default 2 minutes");
        api.sendText(alice, bob, "too late");
        long late = newest(bob, alice);

        settings(Map.of("recall_window_seconds", 0)).body("data.recall_window_seconds", equalTo(0))
                .body("data.edit_window_seconds", equalTo(86400));
        JsonPath refused = recall(alice, bob, late);
        assertEquals(22002, refused.getInt("code"), refused.prettify());
        api.page(bob, alice, 0, 20).body("data.messages[1].content", equalTo("too late"));

        JsonPath byAdmin = post(api.asAdmin().header("user_id", bob), "/message/recall", alice, late);
        assertEquals(200, byAdmin.getInt("code"), "an admin acting as a member: " + byAdmin.prettify());
        api.page(bob, alice, 0, 20).body("data.messages[1].status", equalTo("RECALLED"));
    }

    @Test
    void recallingAnUnreadMessageLowersTheUnreadCount() {
        api.sendText(alice, bob, "one");
        api.sendText(alice, bob, "two");
        api.sendText(alice, bob, "three");
        api.unread(bob).body("data[0].num", equalTo(3));
        long second = newestButOne(bob, alice);
        assertEquals(200, recall(alice, bob, second).getInt("code"));
        api.unread(bob).body("data[0].num", equalTo(2));

        long newest = newest(bob, alice);
        api.as(bob).queryParam("conversation_id", alice).queryParam("msg_id", newest).get("/message/ack").then()
                .body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(0));
        api.unread(alice).body("data[0].num", equalTo(0)); // the sender never counted it
    }

    @Test
    void everyConnectedDeviceOfEveryMemberGetsTheRecallAndTheEditFrames() {
        long group = api.createGroup(alice, List.of(bob, carol));
        try (LiveClient alicePhone = device(alice, 1); LiveClient bobPhone = device(bob, 1);
                LiveClient bobTablet = device(bob, 2)) {
            api.send(alice, MessageApi.toGroup("draft", group)).body("code", equalTo(200));
            long msgId = bobPhone.next("message", WAIT).path("message").path("msg_id").asLong();

            assertEquals(200, post(api.as(alice, 1), "/message/edit", group, msgId, "final").getInt("code"));
            for (LiveClient device : List.of(alicePhone, bobPhone, bobTablet)) {
                JsonNode edit = device.next("edit", WAIT);
                assertNotNull(edit, "edit frame");
                assertEquals(group, edit.path("conversation_id").asLong());
                assertEquals(msgId, edit.path("msg_id").asLong());
                assertTrue(edit.path("cursor").isTextual(), edit.toString());
                assertEquals("final", edit.path("message").path("content").asText(), edit.toString());
                assertTrue(edit.path("message").path("edited_at").asLong() > 0, edit.toString());
            }

            assertEquals(200, post(api.as(alice, 1), "/message/recall", group, msgId).getInt("code"));
            for (LiveClient device : List.of(alicePhone, bobPhone, bobTablet)) {
                JsonNode recall = device.next("recall", WAIT);
                assertNotNull(recall, "recall frame");
                assertEquals(group, recall.path("conversation_id").asLong());
                assertEquals(msgId, recall.path("msg_id").asLong());
                assertEquals("RECALLED", recall.path("message").path("status").asText(), recall.toString());
            }
        }
        try (LiveClient bobPhone = device(bob, 1)) { // a direct conversation: each sees the other as the address
            api.sendText(alice, bob, "direct");
            long msgId = bobPhone.next("message", WAIT).path("message").path("msg_id").asLong();
            assertEquals(200, recall(alice, bob, msgId).getInt("code"));
            assertEquals(alice, bobPhone.next("recall", WAIT).path("conversation_id").asLong());
        }
    }

    @Test
    void theSenderEditsATextWithinTheWindowAndPagesShowTheNewContentAndWhen() {
        api.sendText(alice, bob, "helo");
        long msgId = newest(bob, alice);
        api.page(bob, alice, 0, 20).body("data.messages[0]", not(hasKey("edited_at")));
        long before = System.currentTimeMillis();
        JsonPath edited = post(api.as(alice), "/message/edit", bob, msgId, "hello");
        assertEquals(200, edited.getInt("code"), edited.prettify());
        JsonPath page = api.page(bob, alice, 0, 20).extract().jsonPath();
        assertEquals("hello", page.getString("data.messages[0].content"));
        assertTrue(page.getLong("data.messages[0].edited_at") >= before, page.prettify());
        assertEquals("UNREAD", page.getString("data.messages[0].status"));

        assertEquals(22001, post(api.as(bob), "/message/edit", alice, msgId, "not mine").getInt("code"));
        JsonPath empty = post(api.as(alice), "/message/edit", bob, msgId, "");
        assertEquals(10002, empty.getInt("code"));
        assertEquals("content: required: the new text", empty.getString("message"));
        assertEquals(10002, post(api.as(alice), "/message/edit", bob, msgId, "x".repeat(64 * 1024 + 1))
                .getInt("code"), "the size limit of a send");

        settings(Map.of("edit_window_seconds", 0));
        JsonPath late = post(api.as(alice), "/message/edit", bob, msgId, "hello again");
        assertEquals(22003, late.getInt("code"), late.prettify());
        assertEquals("hello", api.page(bob, alice, 0, 20).extract().path("data.messages[0].content"));
    }

    @Test
    void onlyATextThatWasNotRecalledCanBeEditedAndTheWordFilterApplies() {
        Map<String, Object> location = MessageApi.text("{\"lat\":1,\"lng\":2}", List.of(bob));
        location.put("content_type", 5);
        api.send(alice, location).body("code", equalTo(200));
        long locationId = newest(bob, alice);
        assertEquals(22004, post(api.as(alice), "/message/edit", bob, locationId, "text").getInt("code"));

        api.sendText(alice, bob, "soon recalled");
        long recalled = newest(bob, alice);
        assertEquals(200, recall(alice, bob, recalled).getInt("code"));
        JsonPath refused = post(api.as(alice), "/message/edit", bob, recalled, "edited");
        assertEquals(22004, refused.getInt("code"));
        assertEquals("msg_id: the message was recalled", refused.getString("message"));

        api.sendText(alice, bob, "clean");
        long clean = newest(bob, alice);
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("action", "refuse");
        filter.put("words", List.of("fraud"));
        api.asAdmin().body(filter).post("/app/word_filter").then().body("code", equalTo(200));
        assertEquals(21001, post(api.as(alice), "/message/edit", bob, clean, "a fraud").getInt("code"));
        assertEquals("clean", api.page(bob, alice, 0, 20).extract().path("data.messages[-1].content"));
    }

    @Test
    void theWindowsAreTheAdminsToSet() {
        api.asAdmin().get("/app/message_settings").then().body("code", equalTo(200))
                .body("data.recall_window_seconds", equalTo(120)).body("data.edit_window_seconds", equalTo(86400));
        settings(Map.of("recall_window_seconds", 30, "edit_window_seconds", 600))
                .body("data.recall_window_seconds", equalTo(30)).body("data.edit_window_seconds", equalTo(600));
        settings(Map.of("recall_window_seconds", -1)).body("code", equalTo(10002))
                .body("message", equalTo("recall_window_seconds: must be 0 to 2592000 (30 days)"));
        api.as(alice).body(Map.of("recall_window_seconds", 1)).post("/app/message_settings").then()
                .body("code", equalTo(10010));
        settings(Map.of()).body("data.recall_window_seconds", equalTo(120)); // absent: the default again
    }

    private LiveClient device(long user, int deviceSn) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId, api.userToken(user, deviceSn), null);
    }

    private ValidatableResponse settings(Map<String, Object> body) {
        return api.asAdmin().body(body).post("/app/message_settings").then().statusCode(200);
    }

    private JsonPath recall(long caller, long conversation, long msgId) {
        return post(api.as(caller), "/message/recall", conversation, msgId);
    }

    private static JsonPath post(RequestSpecification as, String path, long conversation, long msgId) {
        return as.body(Map.of("conversation_id", conversation, "msg_id", msgId)).post(path).then().statusCode(200)
                .extract().jsonPath();
    }

    private static JsonPath post(RequestSpecification as, String path, long conversation, long msgId,
            String content) {
        return as.body(Map.of("conversation_id", conversation, "msg_id", msgId, "content", content)).post(path)
                .then().statusCode(200).extract().jsonPath();
    }

    private long newest(long viewer, long address) {
        List<Number> ids = api.page(viewer, address, 0, 100).extract().path("data.messages.msg_id");
        return ids.get(ids.size() - 1).longValue();
    }

    private long newestButOne(long viewer, long address) {
        List<Number> ids = api.page(viewer, address, 0, 100).extract().path("data.messages.msg_id");
        return ids.get(ids.size() - 2).longValue();
    }

    /** The stored content of the direct conversation's messages, oldest first. */
    private List<String> stored(long userA, long userB) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select m.content from messages m join conversations v"
                    + " on v.id = m.conversation_id where v.app_id = ? and v.kind = 1 and v.low_id = ?"
                    + " and v.high_id = ? order by m.msg_id")) {
                ps.setString(1, api.appId);
                ps.setLong(2, Math.min(userA, userB));
                ps.setLong(3, Math.max(userA, userB));
                List<String> contents = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        contents.add(rs.getString(1));
                    }
                }
                return contents;
            }
        });
    }
}
