package io.imcore.auth.token;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.auth.AuthApi;
import io.imcore.common.security.TokenKeySet;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class TokenTest {

    private AuthApi.App app;

    @org.junit.jupiter.api.BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    @Test
    void tokenByUserNameCarriesEveryDecidedField() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        long before = System.currentTimeMillis() / 1000;
        JsonPath json = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD));
        assertEquals(200, json.getInt("code"));
        assertNull(json.get("message"));
        assertEquals(userId, json.getLong("data.user_id"));
        assertEquals(0, json.getInt("data.encrypt_type"));
        long expire = json.getLong("data.expire");
        assertTrue(Math.abs(expire - (before + 7 * 24 * 3600)) < 60, "expire is epoch seconds, 7 days ahead: " + expire);
        assertEquals(Base64.getEncoder().encodeToString(SharedInfrastructure.get().jwtKeys().getPublic().getEncoded()),
                json.getString("data.public_key"));
        JsonPath header = JsonPath.from(new String(Base64.getUrlDecoder().decode(
                json.getString("data.token").split("\\.")[0]), StandardCharsets.UTF_8));
        assertEquals("RS256", header.getString("alg"));
        assertEquals(TokenKeySet.thumbprint(SharedInfrastructure.get().jwtKeys().getPublic()), header.getString("kid"));
        Map<String, Object> data = json.getMap("data");
        assertTrue(!data.containsKey("push_token") && !data.containsKey("device_sn"), "no device without device_guid");
        assertTrue(!data.containsKey("store_token") && !data.containsKey("access_key_secret"),
                "absent by decision: files use presigned URLs");
        asToken(app.appId(), json.getString("data.token")).get("/user/device/list")
                .then().body("code", equalTo(200)).body("data.size()", equalTo(0));
    }

    @Test
    void tokenByUserIdAndByEveryLoginName() {
        String name = AuthApi.uniqueName();
        String mobile = "+1555" + (System.nanoTime() % 1_000_000);
        long userId = post(asApp(app.appId()), "/user/register/v2", Map.of("username", name, "password", PASSWORD,
                "mobile", mobile, "email", name + "@example.org")).getLong("data.user_id");
        assertEquals(userId, post(asApp(app.appId()), "/token/id", Map.of("user_id", userId, "password", PASSWORD))
                .getLong("data.user_id"));
        for (String login : List.of(name, name.toUpperCase(), mobile, name + "@EXAMPLE.org")) {
            JsonPath json = post(asApp(app.appId()), "/token/login", Map.of("login_name", login, "password", PASSWORD));
            assertEquals(200, json.getInt("code"), login + ": " + json.prettify());
            assertEquals(userId, json.getLong("data.user_id"));
        }
    }

    @Test
    void deviceGuidRegistersADeviceOnceWithAStablePushToken() {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        JsonPath first = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD, "device_guid", "phone-A"));
        JsonPath again = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD, "device_guid", "phone-A"));
        JsonPath second = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD, "device_guid", "phone-B"));
        assertEquals(1, first.getInt("data.device_sn"));
        assertEquals(1, again.getInt("data.device_sn"));
        assertEquals(first.getString("data.push_token"), again.getString("data.push_token"));
        assertEquals(2, second.getInt("data.device_sn"));
        assertNotEquals(first.getString("data.push_token"), second.getString("data.push_token"));
        asToken(app.appId(), second.getString("data.token")).get("/user/device/list").then()
                .body("code", equalTo(200)).body("data.size()", equalTo(2))
                .body("data[0].device_sn", equalTo(1)).body("data[0].device_guid", equalTo("phone-A"))
                .body("data[0].push_token", equalTo(first.getString("data.push_token")))
                .body("data[1].device_sn", equalTo(2)).body("data[1]", hasKey("last_seen_at"))
                .body("data[1]", not(hasKey("user_id")));
    }

    @Test
    void aDeviceBeyondTheLimitRemovesTheLeastRecentlySeenOne() {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        int limit = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("im.auth.max-devices-per-user", Integer.class);
        for (int i = 1; i <= limit; i++) {
            deviceToken(name, "device-" + i);
        }
        deviceToken(name, "device-1"); // seen again: device-2 is now the least recently seen

        JsonPath newest = deviceToken(name, "device-" + (limit + 1));

        assertEquals(limit + 1, newest.getInt("data.device_sn"));
        List<String> guids = asToken(app.appId(), newest.getString("data.token")).get("/user/device/list")
                .then().body("code", equalTo(200)).extract().jsonPath().getList("data.device_guid");
        assertEquals(limit, guids.size(), "the limit holds: " + guids);
        assertTrue(guids.contains("device-1") && guids.contains("device-" + (limit + 1)), guids.toString());
        assertTrue(!guids.contains("device-2"), "the least recently seen device is gone: " + guids);
        assertEquals(limit + 2, deviceToken(name, "device-2").getInt("data.device_sn"),
                "a removed device that comes back is a new device");
    }

    private JsonPath deviceToken(String name, String deviceGuid) {
        JsonPath json = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD,
                "device_guid", deviceGuid));
        assertEquals(200, json.getInt("code"), json.prettify());
        return json;
    }

    @Test
    void concurrentFirstTokensOfOneDeviceRegisterItOnce() throws Exception {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        Map<String, Object> body = Map.of("name", name, "password", PASSWORD, "device_guid", "racing-phone");
        // as many at once as the account's free tries (login-account.free-failures, 5): every try is counted before
        // its hash, so more logins of one account at the same moment than that may answer 10015 (docs/throttling.md)
        int racing = 5;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(racing);
        try {
            List<java.util.concurrent.Future<JsonPath>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < racing; i++) {
                calls.add(pool.submit(() -> post(asApp(app.appId()), "/token/user", body)));
            }
            java.util.Set<String> pushTokens = new java.util.HashSet<>();
            for (java.util.concurrent.Future<JsonPath> call : calls) {
                JsonPath json = call.get();
                assertEquals(200, json.getInt("code"), json.prettify());
                assertEquals(1, json.getInt("data.device_sn"));
                pushTokens.add(json.getString("data.push_token"));
            }
            assertEquals(1, pushTokens.size(), "one device, one push_token");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tokenOperationsNeedAKnownApp() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        assertEquals(40000, post(asApp("nosuchapp"), "/token/user", Map.of("name", name, "password", PASSWORD)).getInt("code"));
        assertEquals(40000, post(asApp("nosuchapp"), "/token/login", Map.of("login_name", name, "password", PASSWORD)).getInt("code"));
        assertEquals(40000, post(asApp("nosuchapp"), "/token/id", Map.of("user_id", userId, "password", PASSWORD)).getInt("code"));
        assertEquals(40000, post(io.restassured.RestAssured.given().contentType("application/json"), "/token/user",
                Map.of("name", name, "password", PASSWORD)).getInt("code"));
    }

    @Test
    void wrongPasswordAndUnknownUserAnswerTheSame10013() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        JsonPath wrong = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", "wrong-pass"));
        JsonPath unknown = post(asApp(app.appId()), "/token/user", Map.of("name", name + "x", "password", PASSWORD));
        assertEquals(10013, wrong.getInt("code"));
        assertEquals(10013, unknown.getInt("code"));
        assertEquals(wrong.getString("message"), unknown.getString("message"));
        assertEquals(10013, post(asApp(app.appId()), "/token/id", Map.of("user_id", userId + 1_000_000, "password", PASSWORD)).getInt("code"));
        assertEquals(10013, post(asApp(app.appId()), "/token/login", Map.of("login_name", "nobody@example.org", "password", PASSWORD)).getInt("code"));
        AuthApi.App other = AuthApi.newApp();
        assertEquals(10013, post(asApp(other.appId()), "/token/id", Map.of("user_id", userId, "password", PASSWORD)).getInt("code"),
                "a user of another app is unknown here");
    }

    @Test
    void aDisabledUserGetsNoTokenAndHisTokensStopUntilEnabled() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String token = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).put("/user/disable")
                .then().body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(10014, post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getInt("code"));
        asToken(app.appId(), token).get("/user/device/list").then().body("code", equalTo(10014));
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).put("/user/enable")
                .then().body("code", equalTo(200));
        asToken(app.appId(), token).get("/user/device/list").then().body("code", equalTo(200));
    }

    @Test
    void disableIsAllOrNothing() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId, 999_999_999L))).put("/user/disable")
                .then().body("code", equalTo(10000));
        assertEquals(200, post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getInt("code"));
        String user = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
        asToken(app.appId(), user).body(Map.of("list", List.of(userId))).put("/user/disable").then().body("code", equalTo(10010));
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(0))).put("/user/disable")
                .then().body("code", equalTo(10002));
    }

    @Test
    void changingThePasswordRevokesOlderTokens() {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        String old = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
        asToken(app.appId(), old).body(Map.of("old_password", "not-it", "new_password", "another-pass-2"))
                .post("/user/change_password").then().body("code", equalTo(10013));
        asToken(app.appId(), old).body(Map.of("old_password", PASSWORD, "new_password", "another-pass-2"))
                .post("/user/change_password").then().body("code", equalTo(200)).body("data", equalTo(true));
        asToken(app.appId(), old).get("/user/device/list").then().body("code", equalTo(10008));
        assertEquals(10013, post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getInt("code"));
        String fresh = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", "another-pass-2")).getString("data.token");
        asToken(app.appId(), fresh).get("/user/device/list").then().body("code", equalTo(200));
    }

    @Test
    void anAdminActsAsAUserThroughTheUserIdHeader() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD, "device_guid", "tablet"));
        asToken(app.appId(), app.adminToken()).header("user_id", userId).get("/user/device/list")
                .then().body("code", equalTo(200)).body("data[0].device_guid", equalTo("tablet"));
        asToken(app.appId(), app.adminToken()).header("user_id", 999_999_999L).get("/user/device/list")
                .then().body("code", equalTo(10000));
        asToken(app.appId(), app.adminToken()).header("user_id", "abc").get("/user/device/list")
                .then().body("code", equalTo(10002)).body("message", org.hamcrest.Matchers.startsWith("user_id"));
    }
}
