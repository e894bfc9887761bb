package io.imcore.message.group;

import static org.hamcrest.Matchers.equalTo;
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
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Group roles (issue 49 point 7): owner, admins, members; mute, whole-group mute, announcement, group frames. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class GroupRolesTest extends AppWithUsers {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void theOwnerNamesAnAdminWhoKicksMembersButNotTheOwnerNorAnotherAdmin() {
        long dave = api.newUser();
        long groupId = api.createGroup(alice, List.of(bob, carol, dave));
        code(post(carol, "/group/kick", members(groupId, dave)), 10010); // a plain member may not kick
        code(post(bob, "/group/admin_add", members(groupId, carol)), 10010); // only the owner names admins
        ok(post(alice, "/group/admin_add", members(groupId, bob, carol)));
        api.as(dave).queryParam("group_id", groupId).get("/group/member_list").then()
                .body("data.role", equalTo(List.of("owner", "admin", "admin", "member")));

        code(post(bob, "/group/kick", members(groupId, alice)), 10010);
        code(post(bob, "/group/kick", members(groupId, carol)), 10010);
        ok(post(bob, "/group/kick", members(groupId, dave)));
        api.as(alice).queryParam("group_id", groupId).get("/group/info").then().body("data.member_count", equalTo(3));

        ok(post(alice, "/group/admin_remove", members(groupId, carol)));
        code(post(carol, "/group/kick", members(groupId, bob)), 10010); // no longer an admin
        code(post(alice, "/group/admin_add", members(groupId, api.newUser())), 20002);
    }

    @Test
    void aMutedMembersSendsAnswer20003UntilTheMuteEnds() {
        long dave = api.newUser();
        long groupId = api.createGroup(alice, List.of(bob, carol, dave));
        long other = api.createGroup(alice, List.of(bob));
        ok(post(alice, "/group/admin_add", members(groupId, carol)));
        code(post(bob, "/group/mute", mute(groupId, 60, dave)), 10010); // a member mutes nobody
        code(post(carol, "/group/mute", mute(groupId, 60, alice)), 10010); // the owner and admins are never muted
        long before = System.currentTimeMillis();
        ok(post(carol, "/group/mute", mute(groupId, 3600, bob, dave)));
        Number until = api.as(alice).queryParam("group_id", groupId).get("/group/member_list").then()
                .extract().path("data.find { it.user_id == " + bob + " }.muted_until");
        assertTrue(until.longValue() >= before + 3_600_000 - 1_000, "muted_until is epoch ms: " + until);

        code(api.send(bob, MessageApi.toGroup("muted", groupId)), 20003);
        Map<String, Object> toBoth = MessageApi.text("to both", List.of(other, groupId));
        toBoth.put("type", 2);
        code(api.send(bob, toBoth), 20003); // the path of sends to several groups checks it too
        api.send(bob, MessageApi.toGroup("not muted there", other)).body("code", equalTo(200));
        api.send(carol, MessageApi.toGroup("an admin speaks", groupId)).body("code", equalTo(200));

        // the mute ends at its time: an hour has passed
        database.autoCommit(c -> c.createStatement().executeUpdate("update conversation_members"
                + " set muted_until = now() - interval '1 second' where user_id = " + bob));
        api.send(bob, MessageApi.toGroup("free again", groupId)).body("code", equalTo(200));
        api.as(alice).queryParam("group_id", groupId).get("/group/member_list").then()
                .body("data.find { it.user_id == " + bob + " }.muted_until", nullValue());

        // 0 lifts a mute
        ok(post(alice, "/group/mute", mute(groupId, 0, dave)));
        api.send(dave, MessageApi.toGroup("lifted", groupId)).body("code", equalTo(200));
    }

    @Test
    void aWholeGroupMuteSparesTheOwnerAndAdminsUntilLifted() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        ok(post(alice, "/group/admin_add", members(groupId, bob)));
        code(post(carol, "/group/mute_all", Map.of("group_id", groupId, "muted", true)), 10010);
        ok(post(bob, "/group/mute_all", Map.of("group_id", groupId, "muted", true)));
        api.as(carol).queryParam("group_id", groupId).get("/group/info").then().body("data.muted_all", equalTo(true));

        code(api.send(carol, MessageApi.toGroup("member", groupId)), 20003);
        api.send(bob, MessageApi.toGroup("admin", groupId)).body("code", equalTo(200));
        api.send(alice, MessageApi.toGroup("owner", groupId)).body("code", equalTo(200));

        ok(post(alice, "/group/mute_all", Map.of("group_id", groupId, "muted", false)));
        api.send(carol, MessageApi.toGroup("member again", groupId)).body("code", equalTo(200));
    }

    @Test
    void theAnnouncementIsReadBackInTheInfoAndEveryChangeIsAGroupFrame() {
        long groupId = api.createGroup(alice, List.of(bob, carol));
        try (LiveClient carolPhone = LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                api.userToken(carol, 1), null)) {
            code(post(carol, "/group/announcement", Map.of("group_id", groupId, "announcement", "x")), 10010);
            ok(post(alice, "/group/admin_add", members(groupId, bob)));
            JsonNode named = carolPhone.next("group", WAIT);
            assertNotNull(named, "group frame of the new admin");
            assertEquals(groupId, named.path("group_id").asLong());
            assertEquals("admins_added", named.path("change").asText());
            assertEquals(bob, named.path("user_ids").get(0).asLong());

            ok(post(bob, "/group/announcement", Map.of("group_id", groupId, "announcement", "Trip on Sunday")));
            assertEquals("announcement", carolPhone.next("group", WAIT).path("change").asText());
            api.as(carol).queryParam("group_id", groupId).get("/group/info").then()
                    .body("data.announcement", equalTo("Trip on Sunday"));

            ok(post(bob, "/group/kick", members(groupId, carol)));
            JsonNode kicked = carolPhone.next("group", WAIT);
            assertEquals("members_removed", kicked.path("change").asText(), "the removed member is told too");
            assertEquals("kicked", kicked.path("reason").asText());
        }
        Map<String, Object> cleared = new LinkedHashMap<>();
        cleared.put("group_id", groupId);
        cleared.put("announcement", null);
        ok(post(alice, "/group/announcement", cleared));
        api.as(alice).queryParam("group_id", groupId).get("/group/info").then()
                .body("data.announcement", nullValue());
    }

    private ValidatableResponse post(long caller, String path, Map<String, Object> body) {
        return api.as(caller).body(body).post(path).then().statusCode(200);
    }

    private static Map<String, Object> members(long groupId, Long... users) {
        return Map.of("group_id", groupId, "user_list", List.of(users));
    }

    private static Map<String, Object> mute(long groupId, long seconds, Long... users) {
        return Map.of("group_id", groupId, "user_list", List.of(users), "duration_seconds", seconds);
    }

    private static void ok(ValidatableResponse response) {
        response.body("code", equalTo(200)).body("message", nullValue());
    }

    private static void code(ValidatableResponse response, int code) {
        response.body("code", equalTo(code));
    }
}
