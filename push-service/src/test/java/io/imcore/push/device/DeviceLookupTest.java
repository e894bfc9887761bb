package io.imcore.push.device;

import static io.imcore.push.device.DeviceRegistryTest.ok;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The app admin's registry reads about any user: {@code GET /push/alias/users} and {@code GET /push/user/tokens}. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class DeviceLookupTest extends AppPerTest {

    @Test
    void anAliasFindsEveryUserWithADeviceCarryingIt() {
        long alice = api.newUser();
        long bob = api.newUser();
        long carol = api.newUser();
        api.alias(api.newDevice(bob, 1), "family");
        api.alias(api.newDevice(alice, 1), "family");
        api.alias(api.newDevice(alice, 2), "family");
        api.alias(api.newDevice(carol, 1), "Family");
        JsonPath found = ok(api.asAdmin().get("/push/alias/users?alias=family")).body("data.alias", equalTo("family"))
                .body("data.more", equalTo(false)).extract().jsonPath();
        assertEquals(List.of(Math.min(alice, bob), Math.max(alice, bob)), found.getList("data.user_ids", Long.class));
        ok(api.asAdmin().get("/push/alias/users?alias=nobody")).body("data.user_ids", equalTo(List.of()));
    }

    @Test
    void anotherAppsAliasAndTokensAreNotVisible() {
        PushApi other = PushApi.newApp(database);
        long stranger = other.newUser();
        String phone = other.newDevice(stranger, 1);
        other.alias(phone, "shared-name");
        other.bindToken(phone, "cloud", "strangers-token-0123456789");
        ok(api.asAdmin().get("/push/alias/users?alias=shared-name")).body("data.user_ids", equalTo(List.of()));
        ok(api.asAdmin().get("/push/user/tokens?user_id=" + stranger)).body("data.list", equalTo(List.of()));
        ok(other.asAdmin().get("/push/user/tokens?user_id=" + stranger)).body("data.list.size()", equalTo(1));
    }

    @Test
    void theAnswerHoldsAHundredUsersAndSaysThereAreMore() {
        List<Long> users = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            long user = api.newUser();
            users.add(user);
            api.alias(api.newDevice(user, 1), "crowd");
        }
        JsonPath found = ok(api.asAdmin().get("/push/alias/users?alias=crowd")).body("data.more", equalTo(true))
                .extract().jsonPath();
        assertEquals(users.stream().sorted().limit(100).toList(), found.getList("data.user_ids", Long.class));
    }

    @Test
    void aDisabledUsersTokensAreReadableByTheAdminButNotAsTheUser() {
        long alice = api.newUser();
        String phone = api.newDevice(alice, 1);
        api.bindToken(phone, "cloud", "fcmABC_the_middle_is_hidden_9876");
        api.disable(alice);
        ok(api.asAdmin().get("/push/user/tokens?user_id=" + alice))
                .body("data.list.device_sn", equalTo(List.of(1))).body("data.list.channel", equalTo(List.of("cloud")))
                .body("data.list.device_token_masked", equalTo(List.of("fcmABC****9876")));
        api.asAdmin().header("user_id", alice).get("/user/token/list").then().body("code", equalTo(10014));
        api.as(alice).get("/user/token/list").then().body("code", equalTo(10014));
    }

    @Test
    void badInputIs10002NamingTheParameterAndAUserTokenIsRefused() {
        Map<String, String> cases = Map.of(
                "/push/alias/users", "alias: required",
                "/push/alias/users?alias=", "alias: required",
                "/push/alias/users?alias=" + "a".repeat(129), "alias: at most 128 characters",
                "/push/user/tokens", "user_id: required",
                "/push/user/tokens?user_id=abc", "user_id: must be an integer",
                "/push/user/tokens?user_id=0", "user_id: must be between 1 and " + Long.MAX_VALUE);
        cases.forEach((path, message) -> api.asAdmin().get(path).then().statusCode(200)
                .body("code", equalTo(10002)).body("message", equalTo(message)).body("data", nullValue()));
        long alice = api.newUser();
        api.as(alice).get("/push/alias/users?alias=x").then().body("code", equalTo(10010));
        api.as(alice).get("/push/user/tokens?user_id=" + alice).then().body("code", equalTo(10010));
    }
}
