package io.imcore.message.group;

import static io.imcore.message.MessageChecks.asLong;
import static io.imcore.message.MessageChecks.longs;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.message.MessageConfig;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Groups (decisions.md section 4 and GroupService's rules). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class GroupTest extends AppWithUsers {

    private static final long FIRST_GROUP_ID = 1_000_000_000_000L;

    @Inject
    MessageConfig config;

    // ---------------------------------------------------------------- create

    @Test
    void createReturnsTheGroupWithTheCallerAsOwner() {
        long before = System.currentTimeMillis();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "  Climbers  ");
        body.put("description", "weekend trips");
        body.put("avatar", "https://example.org/a.png");
        body.put("user_list", List.of(bob, carol));
        JsonPath created = ok(api.as(alice).body(body).post("/group/create")).extract().jsonPath();
        long groupId = created.getLong("data.group_id");
        assertTrue(groupId >= FIRST_GROUP_ID, "group ids are >= 10^12: " + groupId);
        assertEquals("Climbers", created.getString("data.name"), "name is stripped");
        assertEquals("weekend trips", created.getString("data.description"));
        assertEquals("https://example.org/a.png", created.getString("data.avatar"));
        assertEquals(alice, created.getLong("data.owner_id"));
        assertEquals(3, created.getInt("data.member_count"));
        long createdAt = created.getLong("data.created_at");
        assertTrue(createdAt >= before - 60_000 && createdAt <= System.currentTimeMillis() + 60_000,
                "created_at is epoch ms: " + createdAt);
        assertNull(created.get("message"));

        // info gives the same as create, to every member
        JsonPath info = ok(info(carol, groupId)).extract().jsonPath();
        assertEquals(created.getMap("data"), info.getMap("data"));

        JsonPath members = ok(memberList(bob, groupId)).extract().jsonPath();
        assertEquals(alice, members.getLong("data[0].user_id"), "the owner comes first");
        assertEquals("owner", members.getString("data[0].role"));
        assertEquals(Set.of(bob, carol),
                Set.of(members.getLong("data[1].user_id"), members.getLong("data[2].user_id")));
        assertEquals(List.of("owner", "member", "member"), members.getList("data.role"));
        for (Object joinedAt : members.getList("data.joined_at")) {
            assertTrue(asLong(joinedAt) >= before - 60_000, "joined_at is epoch ms: " + joinedAt);
        }
    }

    @Test
    void createCountsTheOwnerAndDuplicatesOnce() {
        long groupId = create(alice, List.of(alice, bob, bob, carol, carol));
        info(alice, groupId).body("data.member_count", equalTo(3));
        assertEquals(3, MessageChecks.membersOfGroup(database, api, groupId));
        memberList(alice, groupId).body("data", hasSize(3)).body("data.findAll { it.role == 'owner' }", hasSize(1));
    }

    @Test
    void eachCreateGetsANewGroupId() {
        long first = create(alice, List.of(bob));
        long second = create(alice, List.of(bob));
        assertNotEquals(first, second);
        assertTrue(first >= FIRST_GROUP_ID && second >= FIRST_GROUP_ID);
    }

    @Test
    void createWithoutMembersMakesAGroupOfOne() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "alone");
        long groupId = asLong(ok(api.as(alice).body(body).post("/group/create")).extract().path("data.group_id"));
        info(alice, groupId).body("data.member_count", equalTo(1));
        assertEquals(List.of(alice), longs(memberList(alice, groupId).extract().path("data.user_id")));
    }

    @Test
    void createWithAnUnknownUserStoresNothing() {
        long unknown = 999_999_999_999L;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "broken");
        body.put("user_list", List.of(bob, unknown));
        api.as(alice).body(body).post("/group/create").then().statusCode(200)
                .body("code", equalTo(10000)).body("data", nullValue()).body("message", containsString("user_list"));
        assertEquals(0, MessageChecks.groupsOfApp(database, api));
        assertEquals(0, MessageChecks.membershipsOfApp(database, api));
        api.as(bob).get("/group/user_joined").then().body("code", equalTo(200)).body("data", hasSize(0));
    }

    @Test
    void adminCreatesAnOwnerlessGroupOrActsAsTheUserIdHeader() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "announcements");
        body.put("user_list", List.of(bob, carol));
        JsonPath ownerless = ok(api.asAdmin().body(body).post("/group/create")).extract().jsonPath();
        assertNull(ownerless.get("data.owner_id"));
        assertEquals(2, ownerless.getInt("data.member_count"));
        long g1 = ownerless.getLong("data.group_id");
        memberList(bob, g1).body("data.role", equalTo(List.of("member", "member")));
        // nobody owns it, so no member may kick or destroy it; the admin may
        kick(bob, g1, List.of(carol)).body("code", equalTo(10010));
        destroy(api.asAdmin(), g1).body("code", equalTo(200));

        JsonPath owned = ok(api.asAdmin().header("user_id", alice).body(body).post("/group/create"))
                .extract().jsonPath();
        assertEquals(alice, owned.getLong("data.owner_id"));
        assertEquals(3, owned.getInt("data.member_count"));
    }

    // ---------------------------------------------------------------- invite

    @Test
    void anyMemberInvitesAndTheNewMemberIsAddedDirectly() {
        long dave = api.newUser();
        long groupId = create(alice, List.of(bob));
        ok(invite(bob, groupId, List.of(carol, dave))).body("data", equalTo(true));
        info(carol, groupId).body("code", equalTo(200)).body("data.member_count", equalTo(4));
        List<Long> joined = longs(api.as(dave).get("/group/user_joined").then().extract().path("data.group_id"));
        assertEquals(List.of(groupId), joined);
        memberList(alice, groupId).body("data.findAll { it.role == 'member' }", hasSize(3));
    }

    @Test
    void inviteOfExistingMembersChangesNothing() {
        long groupId = create(alice, List.of(bob));
        ok(invite(bob, groupId, List.of(alice, bob)));
        info(alice, groupId).body("data.member_count", equalTo(2)).body("data.owner_id", equalTo((int) alice));
        memberList(alice, groupId).body("data.role", equalTo(List.of("owner", "member")));
    }

    @Test
    void nonMemberCannotInvite() {
        long dave = api.newUser();
        long groupId = create(alice, List.of(bob));
        invite(carol, groupId, List.of(dave)).body("code", equalTo(20002)).body("data", nullValue());
        invite(carol, groupId, List.of(carol)).body("code", equalTo(20002));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
        api.as(dave).get("/group/user_joined").then().body("data", hasSize(0));
    }

    @Test
    void inviteWithAnUnknownUserAddsNobody() {
        long groupId = create(alice, List.of(bob));
        invite(alice, groupId, List.of(carol, 999_999_999_999L)).body("code", equalTo(10000))
                .body("message", containsString("user_list"));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
        info(carol, groupId).body("code", equalTo(20002));
    }

    // ---------------------------------------------------------------- kick

    @Test
    void ownerKicksAndTheKickedMemberLosesAccess() {
        long groupId = create(alice, List.of(bob, carol));
        send(alice, groupId, "before kick").body("code", equalTo(200));
        ok(kick(alice, groupId, List.of(bob))).body("data", equalTo(true));
        assertEquals(List.of(alice, carol), longs(memberList(alice, groupId).extract().path("data.user_id")));
        info(bob, groupId).body("code", equalTo(20002));
        memberList(bob, groupId).body("code", equalTo(20002));
        api.page(bob, groupId, 0, 20).body("code", equalTo(20002));
        send(bob, groupId, "after kick").body("code", equalTo(20002));
        api.as(bob).get("/group/user_joined").then().body("data", hasSize(0));
        assertEquals(0, MessageChecks.messagesWithContent(database, api, "after kick"));
    }

    @Test
    void kickByDeleteBehavesLikePost() {
        long groupId = create(alice, List.of(bob, carol));
        Map<String, Object> body = Map.of("group_id", groupId, "user_list", List.of(carol));
        ok(api.as(alice).body(body).delete("/group/kick")).body("data", equalTo(true));
        info(alice, groupId).body("data.member_count", equalTo(2));
    }

    @Test
    void kickByNonOwnerIsRefused() {
        long dave = api.newUser();
        long groupId = create(alice, List.of(bob, carol));
        kick(bob, groupId, List.of(carol)).body("code", equalTo(10010)).body("data", nullValue());
        kick(bob, groupId, List.of(alice)).body("code", equalTo(10010));
        kick(dave, groupId, List.of(carol)).body("code", equalTo(10010));
        api.as(bob).body(Map.of("group_id", groupId, "user_list", List.of(carol))).delete("/group/kick").then()
                .body("code", equalTo(10010));
        assertEquals(3, MessageChecks.membersOfGroup(database, api, groupId));
        info(alice, groupId).body("data.owner_id", equalTo((int) alice));
    }

    @Test
    void kickIgnoresIdsThatAreNotMembers() {
        long groupId = create(alice, List.of(bob));
        ok(kick(alice, groupId, List.of(carol, 999_999_999_999L)));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
    }

    @Test
    void adminKicksWithoutBeingAMember() {
        long groupId = create(alice, List.of(bob, carol));
        ok(api.asAdmin().body(Map.of("group_id", groupId, "user_list", List.of(bob))).post("/group/kick"));
        assertEquals(List.of(alice, carol), longs(memberList(alice, groupId).extract().path("data.user_id")));
    }

    @Test
    void kickingTheOwnerPassesOwnership() {
        long groupId = create(alice, List.of(bob));
        ok(api.asAdmin().body(Map.of("group_id", groupId, "user_list", List.of(alice))).post("/group/kick"));
        info(bob, groupId).body("data.owner_id", equalTo((int) bob)).body("data.member_count", equalTo(1));
    }

    // ---------------------------------------------------------------- leave

    @Test
    void memberLeavesAndLosesAccess() {
        long groupId = create(alice, List.of(bob, carol));
        ok(leave(api.as(bob), groupId)).body("data", equalTo(true));
        info(alice, groupId).body("data.member_count", equalTo(2)).body("data.owner_id", equalTo((int) alice));
        info(bob, groupId).body("code", equalTo(20002));
        send(bob, groupId, "gone").body("code", equalTo(20002));
        leave(api.as(bob), groupId).body("code", equalTo(20002));
        api.as(carol).queryParam("group_id", groupId).delete("/group/leave").then().body("code", equalTo(200));
        assertEquals(List.of(alice), longs(memberList(alice, groupId).extract().path("data.user_id")));
    }

    @Test
    void nonMemberCannotLeave() {
        long groupId = create(alice, List.of(bob));
        leave(api.as(carol), groupId).body("code", equalTo(20002));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
    }

    @Test
    void ownerLeavingPassesOwnership() {
        // dave's id is smaller than bert's but he joins later: the pass must follow joining time, not id
        long dave = api.newUser();
        long bert = api.newUser();
        long erin = api.newUser();
        long groupId = create(alice, List.of(bert));
        ok(invite(alice, groupId, List.of(dave)));
        ok(invite(alice, groupId, List.of(erin)));
        assertTrue(dave < bert);

        ok(leave(api.as(alice), groupId));
        info(bert, groupId).body("data.owner_id", equalTo((int) bert)).body("data.member_count", equalTo(3));
        JsonPath members = memberList(dave, groupId).extract().jsonPath();
        assertEquals(bert, members.getLong("data[0].user_id"));
        assertEquals(List.of("owner", "member", "member"), members.getList("data.role"));

        // the new owner has the owner's rights, the old one has none
        ok(kick(bert, groupId, List.of(erin)));
        info(alice, groupId).body("code", equalTo(20002));
        ok(invite(dave, groupId, List.of(alice)));
        kick(alice, groupId, List.of(dave)).body("code", equalTo(10010));
        destroy(api.as(alice), groupId).body("code", equalTo(10010));

        // and when the new owner leaves too, the next longest-standing member takes over
        ok(leave(api.as(bert), groupId));
        info(dave, groupId).body("data.owner_id", equalTo((int) dave));
        ok(destroy(api.as(dave), groupId));
    }

    // ---------------------------------------------------------------- destroy

    @Test
    void onlyTheOwnerDestroys() {
        long groupId = create(alice, List.of(bob));
        destroy(api.as(bob), groupId).body("code", equalTo(10010));
        destroy(api.as(carol), groupId).body("code", equalTo(10010));
        info(bob, groupId).body("code", equalTo(200));
        send(bob, groupId, "still here").body("code", equalTo(200));
        ok(api.as(alice).queryParam("group_id", groupId).delete("/group/destroy")).body("data", equalTo(true));
        info(alice, groupId).body("code", equalTo(20001));
    }

    @Test
    void destroyedGroupAcceptsNoMessages() {
        long groupId = create(alice, List.of(bob));
        send(bob, groupId, "last words").body("code", equalTo(200));
        long stored = MessageChecks.messagesOfGroup(database, api, groupId);
        assertEquals(1, stored);
        ok(destroy(api.as(alice), groupId));

        send(alice, groupId, "into the void").body("code", equalTo(20001)).body("data", nullValue());
        send(bob, groupId, "into the void").body("code", equalTo(20001));
        Map<String, Object> asAdmin = MessageApi.toGroup("into the void", groupId);
        asAdmin.put("from_user_id", alice);
        api.asAdmin().body(asAdmin).post("/message/send").then().body("code", equalTo(20001));
        api.asAdmin().body(MessageApi.toGroup("into the void", groupId)).post("/message/notify").then()
                .body("code", equalTo(20001));
        assertEquals(stored, MessageChecks.messagesOfGroup(database, api, groupId));
        assertEquals(0, MessageChecks.messagesWithContent(database, api, "into the void"));
    }

    @Test
    void destroyedGroupDoesNotExistAnywhere() {
        long groupId = create(alice, List.of(bob));
        send(alice, groupId, "hello").body("code", equalTo(200));
        long msgId = asLong(api.page(bob, groupId, 0, 20).extract().path("data.messages[0].msg_id"));
        ok(destroy(api.as(alice), groupId));

        info(alice, groupId).body("code", equalTo(20001));
        info(bob, groupId).body("code", equalTo(20001));
        api.asAdmin().queryParam("group_id", groupId).get("/group/info").then().body("code", equalTo(20001));
        memberList(alice, groupId).body("code", equalTo(20001));
        invite(alice, groupId, List.of(carol)).body("code", equalTo(20001));
        kick(alice, groupId, List.of(bob)).body("code", equalTo(20001));
        leave(api.as(bob), groupId).body("code", equalTo(20001));
        destroy(api.as(alice), groupId).body("code", equalTo(20001));
        destroy(api.asAdmin(), groupId).body("code", equalTo(20001));
        api.page(bob, groupId, 0, 20).body("code", equalTo(20001));
        api.as(bob).queryParam("conversation_id", groupId).queryParam("device_sn", 0).queryParam("msg_id", msgId)
                .get("/message/ack").then().body("code", equalTo(20001));
        api.as(bob).queryParam("conversation_id", groupId).delete("/message/conversation").then()
                .body("code", equalTo(20001));
        api.as(alice).get("/group/user_joined").then().body("code", equalTo(200)).body("data", hasSize(0));
        api.unread(bob).body("data.findAll { it.conversation_id.uid == " + groupId + "L }", hasSize(0));
        // its id is not reused
        assertNotEquals(groupId, create(alice, List.of(bob)));
    }

    // ---------------------------------------------------------------- info, member_list, user_joined

    @Test
    void infoAndMemberListByNonMemberAre20002() {
        long groupId = create(alice, List.of(bob));
        info(carol, groupId).body("code", equalTo(20002)).body("data", nullValue());
        memberList(carol, groupId).body("code", equalTo(20002)).body("data", nullValue());
        // an admin sees any group; an admin acting as a non-member is checked as that user
        ok(api.asAdmin().queryParam("group_id", groupId).get("/group/member_list")).body("data", hasSize(2));
        api.asAdmin().header("user_id", carol).queryParam("group_id", groupId).get("/group/info").then()
                .body("code", equalTo(20002));
    }

    @Test
    void unknownGroupIs20001() {
        long groupId = create(alice, List.of(bob));
        long unknown = groupId + 1_000_000;
        long belowGroupRange = FIRST_GROUP_ID - 1;
        for (long id : new long[] {unknown, belowGroupRange, 5, bob}) {
            info(alice, id).body("code", equalTo(20001));
            memberList(alice, id).body("code", equalTo(20001));
            invite(alice, id, List.of(carol)).body("code", equalTo(20001));
            kick(alice, id, List.of(bob)).body("code", equalTo(20001));
            leave(api.as(alice), id).body("code", equalTo(20001));
            destroy(api.as(alice), id).body("code", equalTo(20001));
            destroy(api.asAdmin(), id).body("code", equalTo(20001));
            send(alice, id, "to nowhere").body("code", equalTo(20001));
        }
        api.page(alice, unknown, 0, 20).body("code", equalTo(20001));
        assertEquals(0, MessageChecks.messagesOfApp(database, api));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));
    }

    @Test
    void groupOfAnotherAppDoesNotExist() {
        long groupId = create(alice, List.of(bob));
        MessageApi other = MessageApi.newApp(database);
        long stranger = other.newUser();
        other.as(stranger).queryParam("group_id", groupId).get("/group/info").then().body("code", equalTo(20001));
        other.asAdmin().queryParam("group_id", groupId).get("/group/member_list").then().body("code", equalTo(20001));
        other.asAdmin().queryParam("group_id", groupId).post("/group/destroy").then().body("code", equalTo(20001));
        Map<String, Object> body = MessageApi.toGroup("cross-app", groupId);
        body.put("from_user_id", stranger);
        other.asAdmin().body(body).post("/message/send").then().body("code", equalTo(20001));
        info(alice, groupId).body("code", equalTo(200));
        assertEquals(0, MessageChecks.messagesOfGroup(database, api, groupId));
    }

    @Test
    void userJoinedListsLiveGroups() {
        long kept = create(alice, List.of(bob));
        long destroyed = create(alice, List.of(bob));
        long left = create(bob, List.of(alice));
        long kickedFrom = create(carol, List.of(alice, bob));
        long other = create(carol, List.of(bob));
        ok(destroy(api.as(alice), destroyed));
        ok(leave(api.as(alice), left));
        ok(kick(carol, kickedFrom, List.of(alice)));

        JsonPath joined = ok(api.as(alice).get("/group/user_joined")).extract().jsonPath();
        assertEquals(List.of(kept), longs(joined.<Number>getList("data.group_id")));
        assertEquals(2, joined.getInt("data[0].member_count"));
        assertEquals(alice, joined.getLong("data[0].owner_id"));
        assertEquals("group of " + alice, joined.getString("data[0].name"));

        Set<Long> bobs = new TreeSet<>(longs(api.as(bob).get("/group/user_joined").then().extract()
                .path("data.group_id")));
        assertEquals(new TreeSet<>(List.of(kept, left, kickedFrom, other)), bobs);
        // an admin needs the user_id header to name whose groups
        api.asAdmin().get("/group/user_joined").then().body("code", equalTo(10002));
        assertEquals(bobs, new TreeSet<>(longs(api.asAdmin().header("user_id", bob).get("/group/user_joined").then()
                .body("code", equalTo(200)).extract().path("data.group_id"))));
    }

    // ---------------------------------------------------------------- admin with a group_id header

    @Test
    void adminWithGroupHeaderManagesOnlyThatGroup() {
        long dave = api.newUser();
        long mine = create(alice, List.of(bob, carol));
        long foreign = create(alice, List.of(bob, carol));

        // the other group: nothing at all
        groupAdmin(mine).queryParam("group_id", foreign).get("/group/info").then().body("code", equalTo(10010));
        groupAdmin(mine).queryParam("group_id", foreign).get("/group/member_list").then().body("code", equalTo(10010));
        groupAdmin(mine).body(Map.of("group_id", foreign, "user_list", List.of(dave))).post("/group/invite").then()
                .body("code", equalTo(10010));
        groupAdmin(mine).body(Map.of("group_id", foreign, "user_list", List.of(bob))).post("/group/kick").then()
                .body("code", equalTo(10010));
        groupAdmin(mine).queryParam("group_id", foreign).post("/group/destroy").then().body("code", equalTo(10010));
        assertEquals(3, MessageChecks.membersOfGroup(database, api, foreign));
        info(alice, foreign).body("code", equalTo(200)).body("data.member_count", equalTo(3));

        // its own group: everything
        ok(groupAdmin(mine).queryParam("group_id", mine).get("/group/info")).body("data.group_id", equalTo(mine));
        ok(groupAdmin(mine).queryParam("group_id", mine).get("/group/member_list")).body("data", hasSize(3));
        ok(groupAdmin(mine).body(Map.of("group_id", mine, "user_list", List.of(dave))).post("/group/invite"));
        ok(groupAdmin(mine).body(Map.of("group_id", mine, "user_list", List.of(bob))).post("/group/kick"));
        assertEquals(new TreeSet<>(List.of(alice, carol, dave)),
                new TreeSet<>(longs(memberList(alice, mine).extract().path("data.user_id"))));
        ok(groupAdmin(mine).queryParam("group_id", mine).post("/group/destroy"));
        info(alice, mine).body("code", equalTo(20001));
    }

    @Test
    void userTokenWithGroupHeaderIsRefused() {
        long groupId = create(alice, List.of(bob));
        api.as(alice).header("group_id", groupId).queryParam("group_id", groupId).get("/group/info").then()
                .statusCode(200).body("code", equalTo(10010));
        api.as(alice).header("group_id", groupId).queryParam("group_id", groupId).post("/group/destroy").then()
                .body("code", equalTo(10010));
        info(alice, groupId).body("code", equalTo(200));
    }

    // ---------------------------------------------------------------- messages in groups

    @Test
    void nonMemberCannotSendToGroup() {
        long groupId = create(alice, List.of(bob));
        send(carol, groupId, "let me in").body("code", equalTo(20002)).body("data", nullValue());
        // admin acting as the non-member through the user_id header counts as admin: membership is not checked
        Map<String, Object> viaHeader = MessageApi.toGroup("via header", groupId);
        api.asAdmin().header("user_id", carol).body(viaHeader).post("/message/send").then()
                .body("code", equalTo(200));
        assertEquals(0, MessageChecks.messagesWithContent(database, api, "let me in"));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, groupId));
        api.page(carol, groupId, 0, 20).body("code", equalTo(20002));
    }

    @Test
    void adminSendsToAGroupWithoutMembership() {
        long groupId = create(alice, List.of(bob));
        Map<String, Object> body = MessageApi.toGroup("from outside", groupId);
        body.put("from_user_id", carol);
        ok(api.asAdmin().body(body).post("/message/send")).body("data", equalTo(true));
        api.page(bob, groupId, 0, 20).body("data.messages.content", equalTo(List.of("from outside")))
                .body("data.messages[0].from_xid.uid", equalTo((int) carol))
                .body("data.messages[0].to_xid.uid", equalTo(groupId));
    }

    @Test
    void groupMessageIsStoredOnceForFiveHundredMembers() {
        List<Long> members = MessageChecks.users(database, api, 500);
        long groupId = create(alice, members);
        info(alice, groupId).body("data.member_count", equalTo(501));
        assertEquals(501, MessageChecks.membersOfGroup(database, api, groupId));

        long sender = members.get(123);
        send(sender, groupId, "hello five hundred").body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, groupId));
        assertEquals(1, MessageChecks.messagesOfApp(database, api));

        List<Long> sample = new ArrayList<>(List.of(alice, members.get(0), members.get(499)));
        for (int i = 7; i < 500; i += 37) {
            if (members.get(i) != sender) {
                sample.add(members.get(i));
            }
        }
        for (long member : sample) {
            JsonPath unread = api.unread(member).body("code", equalTo(200)).extract().jsonPath();
            assertEquals(List.of(groupId), longs(unread.<Number>getList("data.conversation_id.uid")),
                    "member " + member);
            assertEquals(List.of(1), unread.getList("data.num"), "member " + member);
        }
        api.unread(sender).body("data[0].num", equalTo(0));
        api.page(members.get(499), groupId, 0, 20).body("data.messages.content", equalTo(List.of("hello five hundred")))
                .body("data.messages[0].from_xid.uid", equalTo(sender));
    }

    @Test
    void newMemberSeesOnlyLaterMessages() {
        long groupId = create(alice, List.of(bob));
        send(alice, groupId, "m1").body("code", equalTo(200));
        send(bob, groupId, "m2").body("code", equalTo(200));
        ok(invite(bob, groupId, List.of(carol)));

        api.page(carol, groupId, 0, 20).body("code", equalTo(200)).body("data.messages", hasSize(0))
                .body("data.is_last", equalTo(true));
        api.unread(carol).body("data", hasSize(0));
        // paging from below the join point shows nothing either
        long m2 = asLong(api.page(bob, groupId, 0, 20).extract().path("data.messages[1].msg_id"));
        api.page(carol, groupId, m2 + 1, 20).body("data.messages", hasSize(0));

        send(alice, groupId, "m3").body("code", equalTo(200));
        api.page(carol, groupId, 0, 20).body("data.messages.content", equalTo(List.of("m3")))
                .body("data.is_last", equalTo(true));
        api.unread(carol).body("data", hasSize(1)).body("data[0].conversation_id.uid", equalTo(groupId))
                .body("data[0].num", equalTo(1));
        api.page(bob, groupId, 0, 20).body("data.messages.content", equalTo(List.of("m1", "m2", "m3")));
    }

    @Test
    void rejoiningMemberSeesOnlyMessagesAfterRejoining() {
        long groupId = create(alice, List.of(bob));
        send(alice, groupId, "while in").body("code", equalTo(200));
        ok(leave(api.as(bob), groupId));
        send(alice, groupId, "while out").body("code", equalTo(200));
        ok(invite(alice, groupId, List.of(bob)));
        send(alice, groupId, "back again").body("code", equalTo(200));
        api.page(bob, groupId, 0, 20).body("data.messages.content", equalTo(List.of("back again")));
    }

    @Test
    void sendToSeveralGroupsIsAllOrNothing() {
        long g1 = create(alice, List.of(bob));
        long g2 = create(carol, List.of(bob));
        Map<String, Object> body = MessageApi.toGroup("to both", g1);
        body.put("targets", List.of(g1, g1 + 1_000_000));
        api.send(alice, body).body("code", equalTo(20001)).body("message", containsString("targets"));
        body.put("targets", List.of(g1, g2));
        api.send(alice, body).body("code", equalTo(20002)).body("message", containsString(String.valueOf(g2)));
        assertEquals(0, MessageChecks.messagesOfApp(database, api));

        api.send(bob, body).body("code", equalTo(200));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, g1));
        assertEquals(1, MessageChecks.messagesOfGroup(database, api, g2));
        // a group listed twice gets the message once
        body.put("targets", List.of(g1, g1));
        api.send(bob, body).body("code", equalTo(200));
        assertEquals(2, MessageChecks.messagesOfGroup(database, api, g1));
    }

    @Test
    void groupTargetsNeedType2AndUserTargetsNeedType1() {
        long groupId = create(alice, List.of(bob));
        // a group id as a user target is no user
        api.send(alice, MessageApi.text("wrong type", List.of(groupId))).body("code", equalTo(10000));
        // a user id as a group target is no group
        Map<String, Object> body = MessageApi.toGroup("wrong type", bob);
        api.send(alice, body).body("code", equalTo(20001));
        assertEquals(0, MessageChecks.messagesOfApp(database, api));
    }

    // ---------------------------------------------------------------- limits

    @Test
    void userListOfMoreThan500IsRefused() {
        List<Long> many = MessageChecks.users(database, api, 501);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", "too big");
        body.put("user_list", many);
        api.as(alice).body(body).post("/group/create").then().statusCode(200).body("code", equalTo(10002))
                .body("message", containsString("user_list"));
        assertEquals(0, MessageChecks.groupsOfApp(database, api));

        long groupId = create(alice, List.of(bob));
        invite(alice, groupId, many).body("code", equalTo(10002)).body("message", containsString("user_list"));
        kick(alice, groupId, many).body("code", equalTo(10002)).body("message", containsString("user_list"));
        assertEquals(2, MessageChecks.membersOfGroup(database, api, groupId));

        // exactly 500 is fine
        ok(invite(alice, groupId, many.subList(0, 500)));
        info(alice, groupId).body("data.member_count", equalTo(502));
    }

    @Test
    void groupCannotGrowBeyondTheMemberLimit() {
        int max = config.groupMaxMembers();
        List<Long> users = MessageChecks.users(database, api, max);
        // the owner plus max - 1 members fill the group
        long groupId = create(alice, users.subList(0, Math.min(500, max - 1)));
        for (int from = 500; from < max - 1; from += 500) {
            ok(invite(alice, groupId, users.subList(from, Math.min(from + 500, max - 1))));
        }
        info(alice, groupId).body("data.member_count", equalTo(max));

        long extra = users.get(max - 1);
        invite(alice, groupId, List.of(extra)).body("code", equalTo(10002))
                .body("message", containsString("user_list"));
        invite(alice, groupId, List.of(extra, bob)).body("code", equalTo(10002));
        assertEquals(max, MessageChecks.membersOfGroup(database, api, groupId));
        api.as(extra).get("/group/user_joined").then().body("data", hasSize(0));

        // one leaves, one more fits; re-inviting someone already in does not count
        ok(leave(api.as(users.get(0)), groupId));
        ok(invite(alice, groupId, List.of(extra, users.get(1))));
        info(alice, groupId).body("data.member_count", equalTo(max));
    }

    // ---------------------------------------------------------------- helpers

    private long create(long owner, List<Long> members) {
        return api.createGroup(owner, members);
    }

    private static ValidatableResponse ok(io.restassured.response.Response response) {
        return response.then().statusCode(200).body("code", equalTo(200)).body("message", nullValue());
    }

    private static ValidatableResponse ok(ValidatableResponse response) {
        return response.statusCode(200).body("code", equalTo(200)).body("message", nullValue());
    }

    private ValidatableResponse info(long viewer, long groupId) {
        return api.as(viewer).queryParam("group_id", groupId).get("/group/info").then().statusCode(200);
    }

    private ValidatableResponse memberList(long viewer, long groupId) {
        return api.as(viewer).queryParam("group_id", groupId).get("/group/member_list").then().statusCode(200);
    }

    private ValidatableResponse invite(long caller, long groupId, List<Long> users) {
        return api.as(caller).body(Map.of("group_id", groupId, "user_list", users)).post("/group/invite").then()
                .statusCode(200);
    }

    private ValidatableResponse kick(long caller, long groupId, List<Long> users) {
        return api.as(caller).body(Map.of("group_id", groupId, "user_list", users)).post("/group/kick").then()
                .statusCode(200);
    }

    private static ValidatableResponse leave(RequestSpecification caller, long groupId) {
        return caller.queryParam("group_id", groupId).post("/group/leave").then().statusCode(200);
    }

    private static ValidatableResponse destroy(RequestSpecification caller, long groupId) {
        return caller.queryParam("group_id", groupId).post("/group/destroy").then().statusCode(200);
    }

    private ValidatableResponse send(long from, long groupId, String content) {
        return api.send(from, MessageApi.toGroup(content, groupId));
    }

    private RequestSpecification groupAdmin(long groupId) {
        return api.asAdmin().header("group_id", groupId);
    }

    @Test
    void adminWithGroupHeaderSendsOnlyToThatGroup() {
        long owner = api.newUser();
        long mine = api.createGroup(owner, List.of());
        long other = api.createGroup(owner, List.of());
        api.asAdmin().header("group_id", mine).header("user_id", owner).body(MessageApi.toGroup("to mine", other))
                .post("/message/send").then().body("code", org.hamcrest.Matchers.equalTo(10010));
        api.asAdmin().header("group_id", mine).body(MessageApi.text("to a user", List.of(owner)))
                .post("/message/notify").then().body("code", org.hamcrest.Matchers.equalTo(10010));
        api.asAdmin().header("group_id", mine).body(MessageApi.toGroup("to mine", mine))
                .post("/message/notify").then().body("code", org.hamcrest.Matchers.equalTo(200));
    }
}
