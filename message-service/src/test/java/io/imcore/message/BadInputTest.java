package io.imcore.message;

import static io.imcore.message.MessageChecks.asLong;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Bad input on every message and group endpoint: always HTTP 200 with a JSON envelope, the right code (10002 naming
 * the field for malformed, mistyped, missing or out-of-range input), and nothing stored by a refused write.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class BadInputTest extends AppWithUsers {

    private static final String BEYOND_INT64 = "99999999999999999999";
    private static final String JUST_BEYOND_INT64 = "9223372036854775808";
    private static final long UNKNOWN_USER = 999_999_999_999L;
    private static final long UNKNOWN_GROUP = 1_000_000_000_000_000L;

    /** An endpoint that takes a JSON body. */
    private record BodyEndpoint(String method, String path, boolean admin) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    private static final List<BodyEndpoint> BODY_ENDPOINTS = List.of(
            new BodyEndpoint("POST", "/message/send", false),
            new BodyEndpoint("PUT", "/message/send", false),
            new BodyEndpoint("POST", "/message/notify", true),
            new BodyEndpoint("PUT", "/message/notify", true),
            new BodyEndpoint("POST", "/group/create", false),
            new BodyEndpoint("POST", "/group/invite", false),
            new BodyEndpoint("POST", "/group/kick", false),
            new BodyEndpoint("DELETE", "/group/kick", false));

    // ---------------------------------------------------------------- bodies that are not the documented object

    @Test
    void malformedOrMisshapenBodiesAreRefusedOnEveryBodyEndpoint() {
        long groupId = api.createGroup(alice, List.of(bob));
        long groupsBefore = MessageChecks.groupsOfApp(database, api);
        List<String> bodies = List.of("{", "{\"content_type\":", "not json", "{'type':1}", "{\"type\":1,}",
                "{} {}", "{}}", "[]", "[{}]", "[{\"content_type\":0}]", "\"text\"", "42", "true", "null", "", "{}",
                "{\"targets\":[1,2}");
        for (BodyEndpoint endpoint : BODY_ENDPOINTS) {
            for (String body : bodies) {
                refused(call(endpoint, body), "body " + endpoint + " <" + body + ">");
            }
        }
        assertNothingStored(groupsBefore);
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
    }

    @Test
    void invalidUtf8AndDeepNestingAreRefused() {
        byte[] prefix = ("{\"content_type\":0,\"targets\":[" + bob + "],\"type\":1,\"content\":\"")
                .getBytes(StandardCharsets.UTF_8);
        byte[] invalid = new byte[prefix.length + 4];
        System.arraycopy(prefix, 0, invalid, 0, prefix.length);
        invalid[prefix.length] = (byte) 0xff;
        invalid[prefix.length + 1] = (byte) 0xfe;
        invalid[prefix.length + 2] = '"';
        invalid[prefix.length + 3] = '}';
        refused(api.as(alice).body(invalid).post("/message/send").then(), "invalid UTF-8");

        String deep = "[".repeat(5000) + "]".repeat(5000);
        refused(api.as(alice).body("{\"content_type\":0,\"content\":\"deep\",\"targets\":[" + bob
                + "],\"type\":1,\"zzz\":" + deep + "}").post("/message/send").then(), "deep nesting");
        assertNothingStored(0);
    }

    @Test
    void wrongTypesAndValuesInSendNameTheField() {
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("targets", List.of("\"abc\"", "{}", "[\"" + bob + "\"]", "[1.5]", "[true]", "[null]", "null", "[]",
                "[0]", "[-5]", "[" + bob + ",0]", "[" + BEYOND_INT64 + "]", "[" + JUST_BEYOND_INT64 + "]", "[[1]]",
                String.valueOf(bob), "[" + bob + ".5]", "[1e3]"));
        cases.put("content_type", List.of("\"x\"", "\"0\"", "1.5", "8", "-1", "null", "99999999999", "true", "[0]",
                "{}", BEYOND_INT64));
        cases.put("type", List.of("1.5", "\"1\"", "3", "0", "-1", "null", "true", "[1]", BEYOND_INT64));
        cases.put("content", List.of("123", "{}", "[]", "true", "1.5"));
        cases.put("attachment", List.of("1", "{}"));
        cases.put("config", List.of("[]", "false"));
        cases.put("ext", List.of("{\"k\":1}", "7"));
        cases.put("from_user_id", List.of("\"abc\"", "\"" + alice + "\"", "1.5", BEYOND_INT64, "true", "[1]"));
        cases.put("transaction_id", List.of("\"abc\"", "\"1\"", "1.5", BEYOND_INT64, "{}", "false"));
        for (Map.Entry<String, List<String>> field : cases.entrySet()) {
            for (String value : field.getValue()) {
                String body = sendBody(Map.of(field.getKey(), value));
                refused(api.as(alice).body(body).post("/message/send").then(),
                        field.getKey() + "=" + value, field.getKey());
                refused(api.as(alice).body(body).put("/message/send").then(),
                        "PUT " + field.getKey() + "=" + value, field.getKey());
            }
        }
        for (String missing : List.of("content_type", "type", "targets")) {
            Map<String, String> without = new LinkedHashMap<>();
            without.put(missing, null);
            refused(api.as(alice).body(sendBody(without)).post("/message/send").then(), "missing " + missing, missing);
            refused(api.asAdmin().body(sendBody(without)).post("/message/notify").then(),
                    "notify missing " + missing, missing);
        }
        assertNothingStored(0);
        api.unread(bob).body("data", hasSize(0));
        // the valid base body itself is accepted: the refusals above are about the one changed field
        api.as(alice).body(sendBody(Map.of())).post("/message/send").then().body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void largestIdsAreUnknownNotMalformed() {
        // Long.MAX_VALUE is a well-formed id: no such user / group; one beyond is malformed (10002 above)
        api.as(alice).body(sendBody(Map.of("targets", "[" + Long.MAX_VALUE + "]"))).post("/message/send").then()
                .statusCode(200).body("code", equalTo(10000));
        api.as(alice).body(sendBody(Map.of("targets", "[" + Long.MAX_VALUE + "]", "type", "2")))
                .post("/message/send").then().statusCode(200).body("code", equalTo(20001));
        api.asAdmin().body(sendBody(Map.of("from_user_id", String.valueOf(Long.MAX_VALUE)))).post("/message/send")
                .then().statusCode(200).body("code", equalTo(10000));
        assertNothingStored(0);
    }

    @Test
    void targetsOverFiveHundredAreRefused() {
        List<Long> targets = MessageChecks.users(database, api, 501);
        Map<String, Object> body = MessageApi.text("to everyone", targets);
        api.send(alice, body).body("code", equalTo(10002)).body("message", equalTo("targets: at most 500 ids"));
        api.asAdmin().body(body).post("/message/notify").then().body("code", equalTo(10002))
                .body("message", containsString("targets"));
        assertNothingStored(0);
        api.unread(targets.get(0)).body("data", hasSize(0));
        // 500 is the limit itself
        body.put("targets", targets.subList(0, 500));
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(500, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void oneUnknownTargetStoresNothing() {
        Map<String, Object> body = MessageApi.text("all or nothing", List.of(bob, UNKNOWN_USER, carol));
        api.send(alice, body).body("code", equalTo(10000))
                .body("message", containsString(String.valueOf(UNKNOWN_USER)));
        api.asAdmin().body(body).post("/message/notify").then().body("code", equalTo(10000));
        assertNothingStored(0);
        api.unread(bob).body("data", hasSize(0));
        api.unread(carol).body("data", hasSize(0));
    }

    @Test
    void duplicateTargetsAreDeliveredOnce() {
        api.send(alice, MessageApi.text("just once", List.of(bob, bob, bob))).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    // ---------------------------------------------------------------- sizes

    @Test
    void contentIsLimitedTo64KiBOfUtf8() {
        String ascii = "a".repeat(64 * 1024);
        api.send(alice, MessageApi.text(ascii, List.of(bob))).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesWithContent(database, api, ascii));

        List<String> tooBig = List.of(
                ascii + "a",
                // 21846 chars, far under 64 Ki chars, but 65538 bytes
                "\u20ac".repeat(21_846),
                // two bytes each: 32769 chars, 65538 bytes
                "\u00e9".repeat(32_769),
                // four bytes each (a surrogate pair per emoji): 32770 chars, 65540 bytes
                "\ud83d\ude00".repeat(16_385));
        for (String content : tooBig) {
            api.send(alice, MessageApi.text(content, List.of(bob))).body("code", equalTo(10002))
                    .body("message", containsString("content"));
            Map<String, Object> toGroup = MessageApi.text(content, List.of(bob));
            api.asAdmin().body(toGroup).post("/message/notify").then().body("code", equalTo(10002));
        }
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
        api.unread(bob).body("data[0].num", equalTo(1));

        // 21845 three-byte characters are 65535 bytes: one more ASCII byte is exactly 64 KiB, two are over
        String underInBytes = "\u20ac".repeat(21_845);
        api.send(alice, MessageApi.text(underInBytes, List.of(bob))).body("code", equalTo(200));
        api.page(bob, alice, 0, 1).body("data.messages[0].content", equalTo(underInBytes));
        api.send(alice, MessageApi.text(underInBytes + "a", List.of(bob))).body("code", equalTo(200));
        api.send(alice, MessageApi.text(underInBytes + "ab", List.of(bob))).body("code", equalTo(10002));
        assertEquals(3, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void attachmentConfigAndExtAreLimitedTo16KiB() {
        for (String field : List.of("attachment", "config", "ext")) {
            Map<String, Object> body = MessageApi.text("with " + field, List.of(bob));
            body.put(field, "x".repeat(16 * 1024 + 1));
            api.send(alice, body).body("code", equalTo(10002)).body("message", containsString(field));
            body.put(field, "\u20ac".repeat(5_462)); // 16386 bytes
            api.send(alice, body).body("code", equalTo(10002)).body("message", containsString(field));
        }
        assertNothingStored(0);
        for (String field : List.of("attachment", "config", "ext")) {
            Map<String, Object> body = MessageApi.text("with " + field, List.of(bob));
            body.put(field, "x".repeat(16 * 1024));
            api.send(alice, body).body("code", equalTo(200));
        }
        assertEquals(3, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void bodyOverTheRequestLimitIsRefusedWithTheEnvelope() {
        String content = "a".repeat(2 * 1024 * 1024);
        Response response = api.as(alice).body(MessageApi.text(content, List.of(bob))).post("/message/send");
        refused(response.then(), "2 MiB body", "body");
        assertNothingStored(0);
    }

    /**
     * Characters PostgreSQL text cannot hold (NUL) or that are not Unicode scalar values (a lone surrogate) are valid
     * JSON escapes: the service must either store them or refuse them as a bad parameter (nothing stored), never
     * fail with an internal error.
     */
    @Test
    void unstorableCharactersAreNotAnInternalError() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("\"nul\\u0000inside\"", "nul\u0000inside");
        cases.put("\"lone \\ud800 surrogate\"", null);
        List<String> internalErrors = new ArrayList<>();
        for (Map.Entry<String, String> c : cases.entrySet()) {
            for (String field : List.of("content", "ext")) {
                long before = MessageChecks.messagesOfApp(database, api);
                String what = "POST /message/send " + field + "=" + c.getKey();
                Response response = api.as(alice).body(sendBody(Map.of(field, c.getKey()))).post("/message/send");
                int code = envelopeCode(response, what);
                if (code == 200) {
                    Response page = api.as(bob).queryParam("opposite_id", alice).queryParam("limit", 1)
                            .get("/message/conversation");
                    int pageCode = envelopeCode(page, what + ", then reading it");
                    if (pageCode == 200 && c.getValue() != null) {
                        assertEquals(c.getValue(), page.path("data.messages[0]." + field), what);
                    }
                    if (pageCode != 200) {
                        internalErrors.add(what + ", then reading it -> " + page.asString());
                    }
                    assertEquals(before + 1, MessageChecks.messagesOfApp(database, api), what);
                } else {
                    if (code != 10002) {
                        internalErrors.add(what + " -> " + response.asString());
                    }
                    assertEquals(before, MessageChecks.messagesOfApp(database, api), what);
                }
            }
            String what = "POST /group/create name=" + c.getKey();
            Response created = api.as(alice).body("{\"name\":" + c.getKey() + "}").post("/group/create");
            int code = envelopeCode(created, what);
            if (code != 200 && code != 10002) {
                internalErrors.add(what + " -> " + created.asString());
            }
        }
        assertEquals(List.of(), internalErrors, "expected 200 (stored as sent) or 10002 (nothing stored)");
    }

    private static int envelopeCode(Response response, String what) {
        assertEquals(200, response.statusCode(), what + ": " + response.asString());
        assertEquals("application/json", response.contentType().split(";")[0].trim(), what);
        return response.path("code");
    }

    // ---------------------------------------------------------------- group bodies

    @Test
    void badGroupCreateBodiesNameTheFieldAndCreateNothing() {
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("name", List.of("\"\"", "\"   \"", "\"" + "n".repeat(65) + "\"", "123", "null", "{}", "[\"a\"]"));
        cases.put("description", List.of("\"" + "d".repeat(1025) + "\"", "5", "[]"));
        cases.put("avatar", List.of("\"" + "a".repeat(1025) + "\"", "true", "{}"));
        cases.put("user_list", List.of("\"abc\"", "[0]", "[-1]", "[1.5]", "[\"" + bob + "\"]", "[null]",
                "[" + BEYOND_INT64 + "]", "{}", "[" + bob + ",-3]", String.valueOf(bob),
                "[" + manyIds(501) + "]"));
        for (Map.Entry<String, List<String>> field : cases.entrySet()) {
            for (String value : field.getValue()) {
                Map<String, String> fields = new LinkedHashMap<>();
                fields.put("name", "\"ok\"");
                fields.put("user_list", "[" + bob + "]");
                fields.put(field.getKey(), value);
                refused(api.as(alice).body(json(fields)).post("/group/create").then(),
                        field.getKey() + "=" + value, field.getKey());
            }
        }
        refused(api.as(alice).body("{\"user_list\":[" + bob + "]}").post("/group/create").then(), "no name", "name");
        assertEquals(0, MessageChecks.groupsOfApp(database, api));
        assertEquals(0, MessageChecks.membershipsOfApp(database, api));
        api.as(bob).get("/group/user_joined").then().body("data", hasSize(0));

        // the limits themselves are fine
        Map<String, Object> edge = new LinkedHashMap<>();
        edge.put("name", "n".repeat(64));
        edge.put("description", "d".repeat(1024));
        edge.put("avatar", "a".repeat(1024));
        api.as(alice).body(edge).post("/group/create").then().body("code", equalTo(200))
                .body("data.name", equalTo("n".repeat(64)));
        assertEquals(1, MessageChecks.groupsOfApp(database, api));
    }

    @Test
    void badInviteAndKickBodiesNameTheFieldAndChangeNothing() {
        long groupId = api.createGroup(alice, List.of(bob));
        Map<String, List<String>> cases = new LinkedHashMap<>();
        cases.put("group_id", List.of("\"abc\"", "\"" + groupId + "\"", "0", "-1", "1.5", BEYOND_INT64, "null",
                "[" + groupId + "]", "{}", "true"));
        cases.put("user_list", List.of("\"abc\"", "[]", "null", "[0]", "[-1]", "[1.5]", "[\"" + carol + "\"]",
                "[null]", "[" + BEYOND_INT64 + "]", "{}", String.valueOf(carol), "[" + manyIds(501) + "]"));
        for (Map.Entry<String, List<String>> field : cases.entrySet()) {
            for (String value : field.getValue()) {
                Map<String, String> fields = new LinkedHashMap<>();
                fields.put("group_id", String.valueOf(groupId));
                fields.put("user_list", "[" + carol + "]");
                fields.put(field.getKey(), value);
                String body = json(fields);
                refused(api.as(alice).body(body).post("/group/invite").then(),
                        "invite " + field.getKey() + "=" + value, field.getKey());
                fields.put("user_list", field.getKey().equals("user_list") ? value : "[" + bob + "]");
                body = json(fields);
                refused(api.as(alice).body(body).post("/group/kick").then(),
                        "kick " + field.getKey() + "=" + value, field.getKey());
                refused(api.as(alice).body(body).delete("/group/kick").then(),
                        "DELETE kick " + field.getKey(), field.getKey());
            }
        }
        for (String missing : List.of("group_id", "user_list")) {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("group_id", String.valueOf(groupId));
            fields.put("user_list", "[" + bob + "]");
            fields.remove(missing);
            refused(api.as(alice).body(json(fields)).post("/group/invite").then(),
                    "invite without " + missing, missing);
            refused(api.as(alice).body(json(fields)).post("/group/kick").then(), "kick without " + missing, missing);
        }
        assertEquals(List.of(alice, bob),
                MessageChecks.longs(api.as(alice).queryParam("group_id", groupId).get("/group/member_list").then()
                        .body("code", equalTo(200)).extract().path("data.user_id")));
        // a well-formed id below the group range, or of no group, is no group
        for (long id : new long[] {5, UNKNOWN_GROUP, Long.MAX_VALUE}) {
            api.as(alice).body(Map.of("group_id", id, "user_list", List.of(carol))).post("/group/invite").then()
                    .body("code", equalTo(20001));
        }
    }

    // ---------------------------------------------------------------- query parameters

    @Test
    void badGroupIdQueryParametersAreRefusedOnEveryGroupQueryEndpoint() {
        long groupId = api.createGroup(alice, List.of(bob));
        List<Function<RequestSpecification, Response>> endpoints = List.of(
                s -> s.post("/group/leave"), s -> s.delete("/group/leave"),
                s -> s.post("/group/destroy"), s -> s.delete("/group/destroy"),
                s -> s.get("/group/info"), s -> s.get("/group/member_list"));
        List<String> names = List.of("POST leave", "DELETE leave", "POST destroy", "DELETE destroy", "info",
                "member_list");
        List<String> bad = List.of("", " ", "abc", "0", "-1", "1.5", BEYOND_INT64, JUST_BEYOND_INT64, "1e12",
                "0x10", groupId + "abc", "--1");
        for (int i = 0; i < endpoints.size(); i++) {
            refused(endpoints.get(i).apply(api.as(alice)).then(), names.get(i) + " without group_id", "group_id");
            for (String value : bad) {
                refused(endpoints.get(i).apply(api.as(alice).queryParam("group_id", value)).then(),
                        names.get(i) + " group_id=" + value, "group_id");
            }
            for (long unknown : new long[] {5, UNKNOWN_GROUP, Long.MAX_VALUE}) {
                endpoints.get(i).apply(api.as(alice).queryParam("group_id", unknown)).then().statusCode(200)
                        .contentType(ContentType.JSON).body("code", equalTo(20001));
            }
        }
        api.as(alice).queryParam("group_id", groupId).get("/group/info").then().body("code", equalTo(200))
                .body("data.member_count", equalTo(2));
    }

    @Test
    void badConversationQueryParametersAreRefused() {
        api.sendText(alice, bob, "one");
        List<String> badIds = List.of("", "abc", "-1", "1.5", BEYOND_INT64, JUST_BEYOND_INT64, "1e3");
        refused(conversation(bob, null, "0", "20"), "no opposite_id", "opposite_id");
        for (String value : badIds) {
            refused(conversation(bob, value, "0", "20"), "opposite_id=" + value, "opposite_id");
        }
        for (String value : List.of("abc", "-1", "1.5", BEYOND_INT64)) {
            refused(conversation(bob, String.valueOf(alice), value, "20"), "msg_id_start=" + value, "msg_id_start");
        }
        for (String value : List.of("0", "101", "abc", "-1", "1.5", BEYOND_INT64, "1000")) {
            refused(conversation(bob, String.valueOf(alice), "0", value), "limit=" + value, "limit");
        }
        // the bounds themselves and the defaults are fine
        conversation(bob, String.valueOf(alice), "0", "1").body("code", equalTo(200)).body("data.messages", hasSize(1));
        conversation(bob, String.valueOf(alice), "0", "100").body("code", equalTo(200));
        conversation(bob, String.valueOf(alice), null, null).body("code", equalTo(200))
                .body("data.messages[0].content", equalTo("one"));
        conversation(bob, String.valueOf(alice), String.valueOf(Long.MAX_VALUE), "20").body("code", equalTo(200))
                .body("data.messages", hasSize(1));
    }

    @Test
    void badAckParametersAreRefusedAndChangeNothing() {
        api.sendText(alice, bob, "unread");
        long msgId = asLong(api.page(bob, alice, 0, 20).extract().path("data.messages[0].msg_id"));
        String a = String.valueOf(alice);
        String m = String.valueOf(msgId);
        refused(ack(bob, null, "0", m), "no conversation_id", "conversation_id");
        for (String value : List.of("", "abc", "-1", "1.5", BEYOND_INT64)) {
            refused(ack(bob, value, "0", m), "conversation_id=" + value, "conversation_id");
        }
        refused(ack(bob, a, "0", null), "no msg_id", "msg_id");
        for (String value : List.of("", "0", "-1", "abc", "1.5", BEYOND_INT64)) {
            refused(ack(bob, a, "0", value), "msg_id=" + value, "msg_id");
        }
        for (String value : List.of("-1", "abc", "2147483648", BEYOND_INT64)) {
            refused(ack(bob, a, value, m), "device_sn=" + value, "device_sn");
        }
        api.unread(bob).body("data[0].num", equalTo(1));
        api.page(bob, alice, 0, 20).body("data.messages[0].status", equalTo("UNREAD"));
        // and the valid call works
        ack(bob, a, "0", m).body("code", equalTo(200));
        api.unread(bob).body("data[0].num", equalTo(0));
    }

    @Test
    void badDeleteConversationParametersAreRefusedAndHideNothing() {
        api.sendText(alice, bob, "keep me");
        refused(deleteConversation(bob, null), "no conversation_id", "conversation_id");
        for (String value : List.of("", "abc", "-1", "1.5", BEYOND_INT64, JUST_BEYOND_INT64)) {
            refused(deleteConversation(bob, value), "conversation_id=" + value, "conversation_id");
        }
        deleteConversation(bob, String.valueOf(UNKNOWN_USER)).body("code", equalTo(10000));
        deleteConversation(bob, String.valueOf(UNKNOWN_GROUP)).body("code", equalTo(20001));
        api.page(bob, alice, 0, 20).body("data.messages.content", equalTo(List.of("keep me")));
        api.unread(bob).body("data", hasSize(1)).body("data[0].num", equalTo(1));
    }

    @Test
    void unknownConversationsAreNamedByTheirCode() {
        api.page(alice, UNKNOWN_USER, 0, 20).body("code", equalTo(10000)).body("data", nullValue());
        api.page(alice, UNKNOWN_GROUP, 0, 20).body("code", equalTo(20001));
        ack(alice, String.valueOf(UNKNOWN_USER), "0", "1").body("code", equalTo(10000));
        ack(alice, String.valueOf(UNKNOWN_GROUP), "0", "1").body("code", equalTo(20001));
        // a known user without a conversation: an empty page, and nothing to acknowledge
        api.page(alice, carol, 0, 20).body("code", equalTo(200)).body("data.messages", hasSize(0))
                .body("data.is_last", equalTo(true));
        refused(ack(alice, String.valueOf(carol), "0", "1"), "ack without conversation", "conversation_id");
        // a user of another app is unknown here
        MessageApi other = MessageApi.newApp(database);
        long stranger = other.newUser();
        other.sendText(stranger, other.newUser(), "elsewhere");
        api.page(alice, stranger, 0, 20).body("code", equalTo(10000));
        api.send(alice, MessageApi.text("cross-app", List.of(stranger))).body("code", equalTo(10000));
        assertNothingStored(0);
    }

    // ---------------------------------------------------------------- someone else's conversation

    @Test
    void thirdUserNeverSeesOthersConversation() {
        api.sendText(alice, bob, "secret 1");
        api.sendText(alice, bob, "secret 2");
        api.sendText(alice, carol, "hello carol");
        List<Number> secretIds = api.page(bob, alice, 0, 20).extract().path("data.messages.msg_id");
        long newest = asLong(secretIds.get(secretIds.size() - 1));

        for (long opposite : new long[] {alice, bob, carol, 0}) {
            for (long start : new long[] {0, newest + 1, Long.MAX_VALUE}) {
                String page = api.page(carol, opposite, start, 100).body("code", equalTo(200)).extract().asString();
                assertFalse(page.contains("secret"), "carol, opposite " + opposite + ", start " + start + ": " + page);
            }
        }
        api.page(carol, alice, 0, 100).body("data.messages.content", equalTo(List.of("hello carol")));
        api.page(carol, bob, 0, 100).body("data.messages", hasSize(0));
        api.unread(carol).body("data.conversation_id.uid", equalTo(List.of((int) alice)));

        // carol's receipts and deletes never touch the others' conversation
        ack(carol, String.valueOf(alice), "0", String.valueOf(newest)).body("code", equalTo(200));
        api.unread(carol).body("data[0].num", equalTo(1));
        ack(carol, String.valueOf(bob), "0", String.valueOf(newest)).body("code", equalTo(10002));
        deleteConversation(carol, String.valueOf(alice)).body("code", equalTo(200));
        deleteConversation(carol, String.valueOf(bob)).body("code", equalTo(200));
        api.page(bob, alice, 0, 20).body("data.messages.content", equalTo(List.of("secret 1", "secret 2")))
                .body("data.messages.status", equalTo(List.of("UNREAD", "UNREAD")));
        api.page(alice, bob, 0, 20).body("data.messages.content", equalTo(List.of("secret 1", "secret 2")))
                .body("data.messages.status", equalTo(List.of("UNREAD", "UNREAD")));
        api.unread(bob).body("data", hasSize(1)).body("data[0].num", equalTo(2));

        // an admin acting as carol sees what carol sees
        String asAdmin = api.asAdmin().header("user_id", carol).queryParam("opposite_id", bob)
                .get("/message/conversation").then().body("code", equalTo(200)).extract().asString();
        assertFalse(asAdmin.contains("secret"), asAdmin);
    }

    @Test
    void nonMemberOfAGroupGets20002() {
        long groupId = api.createGroup(alice, List.of(bob));
        api.send(alice, MessageApi.toGroup("members only", groupId)).body("code", equalTo(200));
        long msgId = asLong(api.page(bob, groupId, 0, 20).extract().path("data.messages[0].msg_id"));

        api.page(carol, groupId, 0, 20).body("code", equalTo(20002)).body("data", nullValue());
        api.page(carol, groupId, msgId + 1, 20).body("code", equalTo(20002));
        ack(carol, String.valueOf(groupId), "0", String.valueOf(msgId)).body("code", equalTo(20002));
        deleteConversation(carol, String.valueOf(groupId)).body("code", equalTo(20002));
        String unread = api.unread(carol).body("code", equalTo(200)).extract().asString();
        assertFalse(unread.contains(String.valueOf(groupId)), unread);
        api.unread(bob).body("data[0].num", equalTo(1));
    }

    // ---------------------------------------------------------------- headers, methods, paths

    @Test
    void everyEndpointAnswersAnEnvelopeForMissingOrBadCredentials() {
        String validToken = api.userToken(alice);
        String otherAppToken = MessageApi.newApp(database).adminToken();
        for (String[] endpoint : allEndpoints()) {
            String method = endpoint[0];
            String path = endpoint[1];
            Function<RequestSpecification, Response> call = spec -> (method.equals("GET") ? spec : spec.body("{}"))
                    .request(method, path);
            expectCode(call.apply(given().contentType(ContentType.JSON)), 40000, endpoint);
            expectCode(call.apply(given().header("app_id", "no-such-app").header("access-token", validToken)
                    .contentType(ContentType.JSON)), 40000, endpoint);
            expectCode(call.apply(given().header("app_id", api.appId).contentType(ContentType.JSON)), 10003,
                    endpoint);
            expectCode(call.apply(given().header("app_id", api.appId).header("access-token", "not.a.token")
                    .contentType(ContentType.JSON)), 10008, endpoint);
            expectCode(call.apply(given().header("app_id", api.appId).header("access-token", otherAppToken)
                    .contentType(ContentType.JSON)), 10008, endpoint);
            expectCode(call.apply(given().header("app_id", api.appId).header("access-token", validToken)
                    .header("user_id", bob).contentType(ContentType.JSON)), 10010, endpoint);
            expectCode(call.apply(api.asAdmin().header("user_id", "abc")), 10002, endpoint);
            expectCode(call.apply(api.asAdmin().header("group_id", "-4")), 10002, endpoint);
            expectCode(call.apply(api.asAdmin().header("user_id", UNKNOWN_USER)), 10000, endpoint);
        }
        assertNothingStored(0);
    }

    @Test
    void senderRulesOfSendAreEnforced() {
        long dave = api.newUser();
        api.disable(dave);
        Map<String, Object> body = MessageApi.text("who sends", List.of(bob));
        body.put("from_user_id", carol);
        api.send(alice, body).body("code", equalTo(10010)).body("message", containsString("from_user_id"));
        body.remove("from_user_id");
        api.asAdmin().body(body).post("/message/send").then().body("code", equalTo(10002))
                .body("message", containsString("from_user_id"));
        body.put("from_user_id", UNKNOWN_USER);
        api.asAdmin().body(body).post("/message/send").then().body("code", equalTo(10000));
        body.put("from_user_id", dave);
        api.asAdmin().body(body).post("/message/send").then().body("code", equalTo(10014));
        body.put("from_user_id", carol);
        api.asAdmin().header("user_id", alice).body(body).post("/message/send").then().body("code", equalTo(10002));
        api.as(alice).body(body).post("/message/notify").then().body("code", equalTo(10010));
        assertNothingStored(0);
        // the user's own id as from_user_id is fine
        body.put("from_user_id", alice);
        api.send(alice, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void unknownPathsAndMethodsGetTheEnvelope() {
        refused(api.as(alice).get("/message/send").then(), "GET send");
        refused(api.as(alice).delete("/message/send").then(), "DELETE send");
        refused(api.as(alice).body("{}").patch("/group/create").then(), "PATCH create");
        refused(api.as(alice).get("/group/invite").then(), "GET invite");
        refused(api.as(alice).post("/message/unread").then(), "POST unread");
        refused(api.as(alice).get("/message/nope").then(), "unknown path");
        refused(api.as(alice).get("/group").then(), "group root");
        assertNothingStored(0);
    }

    // ---------------------------------------------------------------- helpers

    private ValidatableResponse call(BodyEndpoint endpoint, String body) {
        RequestSpecification spec = endpoint.admin() ? api.asAdmin() : api.as(alice);
        return spec.body(body).request(endpoint.method(), endpoint.path()).then();
    }

    /** HTTP 200, a JSON envelope with code 10002, no data and a message (checked in one pass). */
    private static void refused(ValidatableResponse response, String what) {
        refused(response, what, null);
    }

    /** Like {@link #refused(ValidatableResponse, String)}, and the message names the field. */
    private static void refused(ValidatableResponse response, String what, String field) {
        Response raw = response.extract().response();
        String text = raw.asString();
        assertEquals(200, raw.statusCode(), what + ": " + text);
        assertEquals("application/json", String.valueOf(raw.contentType()).split(";")[0].trim(), what + ": " + text);
        assertFalse(text.contains("<html") || text.contains("Exception"), what + ": " + text);
        JsonPath json = JsonPath.from(text);
        assertEquals(Integer.valueOf(10002), json.get("code"), what + ": " + text);
        assertNull(json.get("data"), what + ": " + text);
        String message = json.get("message");
        assertNotNull(message, what + ": " + text);
        assertFalse(message.contains("correlation"), what + ": " + text);
        if (field != null) {
            assertTrue(message.contains(field), what + ": the message names " + field + ": " + text);
        }
    }

    private static void expectCode(Response response, int code, String[] endpoint) {
        String text = response.asString();
        assertEquals(200, response.statusCode(), endpoint[0] + " " + endpoint[1] + ": " + text);
        assertEquals(code, (int) response.path("code"), endpoint[0] + " " + endpoint[1] + ": " + text);
    }

    private void assertNothingStored(long groups) {
        assertEquals(0, MessageChecks.messagesOfApp(database, api), "no message stored");
        assertEquals(groups, MessageChecks.groupsOfApp(database, api), "no group created");
    }

    /** The valid send body alice -> bob with some fields replaced by raw JSON (null value: field left out). */
    private String sendBody(Map<String, String> changes) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("content_type", "0");
        fields.put("content", "\"hi\"");
        fields.put("targets", "[" + bob + "]");
        fields.put("type", "1");
        for (Map.Entry<String, String> change : changes.entrySet()) {
            if (change.getValue() == null) {
                fields.remove(change.getKey());
            } else {
                fields.put(change.getKey(), change.getValue());
            }
        }
        return json(fields);
    }

    private static String json(Map<String, String> rawFields) {
        return rawFields.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String manyIds(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ids.add(String.valueOf(10_000 + i));
        }
        return String.join(",", ids);
    }

    private ValidatableResponse conversation(long viewer, String opposite, String start, String limit) {
        RequestSpecification spec = api.as(viewer);
        if (opposite != null) {
            spec.queryParam("opposite_id", opposite);
        }
        if (start != null) {
            spec.queryParam("msg_id_start", start);
        }
        if (limit != null) {
            spec.queryParam("limit", limit);
        }
        return spec.get("/message/conversation").then().statusCode(200);
    }

    private ValidatableResponse ack(long viewer, String conversation, String deviceSn, String msgId) {
        RequestSpecification spec = api.as(viewer);
        if (conversation != null) {
            spec.queryParam("conversation_id", conversation);
        }
        if (deviceSn != null) {
            spec.queryParam("device_sn", deviceSn);
        }
        if (msgId != null) {
            spec.queryParam("msg_id", msgId);
        }
        return spec.get("/message/ack").then().statusCode(200);
    }

    private ValidatableResponse deleteConversation(long viewer, String conversation) {
        RequestSpecification spec = api.as(viewer);
        if (conversation != null) {
            spec.queryParam("conversation_id", conversation);
        }
        return spec.delete("/message/conversation").then().statusCode(200);
    }

    private static List<String[]> allEndpoints() {
        List<String[]> all = new ArrayList<>();
        for (BodyEndpoint endpoint : BODY_ENDPOINTS) {
            all.add(new String[] {endpoint.method(), endpoint.path()});
        }
        for (String[] e : new String[][] {{"POST", "/group/leave"}, {"DELETE", "/group/leave"},
                {"POST", "/group/destroy"}, {"DELETE", "/group/destroy"}, {"GET", "/group/info"},
                {"GET", "/group/member_list"}, {"GET", "/group/user_joined"}, {"GET", "/message/conversation"},
                {"DELETE", "/message/conversation"}, {"GET", "/message/ack"}, {"GET", "/message/unread"},
                {"GET", "/message/sync"}}) {
            all.add(e);
        }
        return all;
    }
}
