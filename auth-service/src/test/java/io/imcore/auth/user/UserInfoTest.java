package io.imcore.auth.user;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.imcore.auth.AuthApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /user/info}: the app admin finds a user by id or user name, disabled users included. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class UserInfoTest {

    private AuthApi.App app;

    @BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    @Test
    void theAdminFindsAUserByNameWithoutRegardToCaseOrById() {
        String name = AuthApi.uniqueName();
        long userId = post(asApp(app.appId()), "/user/register/v2", Map.of("username", name, "password", PASSWORD,
                "email", name + "@example.com")).getLong("data.user_id");
        post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD, "device_guid", "phone-1"));
        for (String query : List.of("username=" + name.toUpperCase(), "user_id=" + userId)) {
            asToken(app.appId(), app.adminToken()).get("/user/info?" + query).then().statusCode(200)
                    .body("code", equalTo(200)).body("message", nullValue())
                    .body("data.user_id", equalTo((int) userId)).body("data.username", equalTo(name))
                    .body("data.email", equalTo(name + "@example.com")).body("data.disabled", equalTo(false))
                    .body("data.devices.size()", equalTo(1)).body("data.devices[0].device_sn", equalTo(1))
                    .body("data.devices[0].device_guid", equalTo("phone-1"));
        }
    }

    @Test
    void aDisabledUserIsFoundWithItsDevicesWhileItsOwnTokenIsRefused() {
        String name = AuthApi.uniqueName();
        String token = AuthApi.userToken(app.appId(), name, "phone-1");
        long userId = asToken(app.appId(), app.adminToken()).get("/user/info?username=" + name).then().extract()
                .jsonPath().getLong("data.user_id");
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).put("/user/disable")
                .then().body("code", equalTo(200));
        asToken(app.appId(), app.adminToken()).get("/user/info?user_id=" + userId).then()
                .body("code", equalTo(200)).body("data.disabled", equalTo(true))
                .body("data.devices[0].device_guid", equalTo("phone-1"));
        asToken(app.appId(), token).get("/user/device/list").then().body("code", equalTo(10014));
        asToken(app.appId(), app.adminToken()).header("user_id", userId).get("/user/device/list").then()
                .body("code", equalTo(10014));
    }

    @Test
    void anUnknownUserAndAnotherAppsUserAre10000() {
        String name = AuthApi.uniqueName();
        long otherAppsUser = AuthApi.register(AuthApi.newApp().appId(), name);
        for (String query : List.of("username=" + name, "user_id=" + otherAppsUser, "username=nobody_here")) {
            asToken(app.appId(), app.adminToken()).get("/user/info?" + query).then().statusCode(200)
                    .body("code", equalTo(10000)).body("message", equalTo("user does not exist"))
                    .body("data", nullValue());
        }
    }

    @Test
    void badInputIs10002NamingTheParameter() {
        Map<String, String> cases = Map.of(
                "", "user_id: user_id or username required",
                "?user_id=1&username=abc", "username: give user_id or username, not both",
                "?user_id=abc", "user_id: must be an integer",
                "?user_id=0", "user_id: must be between 1 and " + Long.MAX_VALUE,
                "?username=has%20space", "username: " + UserFieldRules.USERNAME_RULE,
                "?username=12345", "username: " + UserFieldRules.USERNAME_RULE);
        cases.forEach((query, message) -> asToken(app.appId(), app.adminToken()).get("/user/info" + query).then()
                .statusCode(200).body("code", equalTo(10002)).body("message", equalTo(message)));
    }

    @Test
    void onlyTheAppAdminMayLookUsersUp() {
        String name = AuthApi.uniqueName();
        String userToken = AuthApi.userToken(app.appId(), name, "phone-1");
        asToken(app.appId(), userToken).get("/user/info?username=" + name).then().body("code", equalTo(10010));
        asApp(app.appId()).get("/user/info?username=" + name).then().body("code", equalTo(10003));
    }
}
