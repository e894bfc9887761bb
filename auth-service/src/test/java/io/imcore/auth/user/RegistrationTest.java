package io.imcore.auth.user;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.imcore.auth.AuthApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class RegistrationTest {

    private AuthApi.App app;

    @org.junit.jupiter.api.BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    @Test
    void registerReturnsTheNewUserFieldByField() {
        String name = AuthApi.uniqueName();
        asApp(app.appId()).body(Map.of("username", name, "password", PASSWORD, "mobile", "+8613800000001",
                        "email", name + "@example.com"))
                .post("/user/register/v2").then().statusCode(200)
                .body("code", equalTo(200)).body("message", nullValue())
                .body("data.user_id", greaterThan(0)).body("data.username", equalTo(name))
                .body("data.mobile", equalTo("+8613800000001")).body("data.email", equalTo(name + "@example.com"));
    }

    @Test
    void aTakenNameMobileOrEmailIs10004() {
        String name = AuthApi.uniqueName();
        post(asApp(app.appId()), "/user/register/v2", Map.of("username", name, "password", PASSWORD,
                "mobile", "+4400000002", "email", name + "@example.com"));
        asApp(app.appId()).body(Map.of("username", name.toUpperCase(), "password", PASSWORD)).post("/user/register/v2")
                .then().body("code", equalTo(10004)).body("message", startsWith("username"));
        asApp(app.appId()).body(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD, "mobile", "+4400000002"))
                .post("/user/register/v2").then().body("code", equalTo(10004)).body("message", startsWith("mobile"));
        asApp(app.appId()).body(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD,
                "email", name.toUpperCase() + "@EXAMPLE.com"))
                .post("/user/register/v2").then().body("code", equalTo(10004)).body("message", startsWith("email"));
    }

    @Test
    void theSameNameInAnotherAppIsFree() {
        String name = AuthApi.uniqueName();
        String otherApp = AuthApi.newApp().appId();
        Map<String, String> registration = Map.of("username", name, "password", PASSWORD);
        JsonPath first = post(asApp(app.appId()), "/user/register/v2", registration);
        JsonPath second = post(asApp(otherApp), "/user/register/v2", registration);
        assertEquals(200, first.getInt("code"), first.prettify());
        assertEquals(200, second.getInt("code"), second.prettify());
        long firstUser = first.getLong("data.user_id");
        long secondUser = second.getLong("data.user_id");
        assertNotEquals(firstUser, secondUser, "two users");
        // each app's login by that name finds its own user
        Map<String, String> login = Map.of("name", name, "password", PASSWORD);
        assertEquals(firstUser, post(asApp(app.appId()), "/token/user", login).getLong("data.user_id"));
        assertEquals(secondUser, post(asApp(otherApp), "/token/user", login).getLong("data.user_id"));
    }

    @ParameterizedTest
    @CsvSource({
        "username, 12345",
        "username, ab",
        "username, has space",
        "username, " + "abcdefghijabcdefghijabcdefghijabc",
        "password, short",
        "mobile, 12ab",
        "email, not-an-email",
    })
    void invalidFieldsAre10002NamingTheField(String field, String value) {
        Map<String, Object> body = new HashMap<>(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD));
        body.put(field, value);
        asApp(app.appId()).body(body).post("/user/register/v2")
                .then().statusCode(200).body("code", equalTo(10002)).body("message", startsWith(field + ":"))
                .body("data", nullValue());
    }

    @Test
    void aPasswordOver72BytesIsRefusedNotTruncated() {
        asApp(app.appId()).body(Map.of("username", AuthApi.uniqueName(), "password", "密".repeat(30)))
                .post("/user/register/v2").then().body("code", equalTo(10002)).body("message", startsWith("password"));
    }

    @Test
    void unknownOrMissingAppIs40000() {
        Map<String, Object> body = Map.of("username", AuthApi.uniqueName(), "password", PASSWORD);
        asApp("nosuchapp").body(body).post("/user/register/v2").then().body("code", equalTo(40000));
        io.restassured.RestAssured.given().body(body).post("/user/register/v2").then().body("code", equalTo(40000));
    }

    @Test
    void concurrentRegistrationsOfOneNameLetExactlyOneWin() throws Exception {
        String name = AuthApi.uniqueName();
        int contenders = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(contenders);
        try {
            List<Future<Integer>> codes = new ArrayList<>();
            for (int i = 0; i < contenders; i++) {
                Callable<Integer> attempt = () -> {
                    start.await();
                    return post(asApp(app.appId()), "/user/register/v2", Map.of("username", name, "password", PASSWORD))
                            .getInt("code");
                };
                codes.add(pool.submit(attempt));
            }
            start.countDown();
            int won = 0;
            int lost = 0;
            for (Future<Integer> code : codes) {
                int value = code.get();
                if (value == 200) {
                    won++;
                } else if (value == 10004) {
                    lost++;
                }
            }
            assertEquals(1, won, "exactly one registration wins");
            assertEquals(contenders - 1, lost, "every other one gets 10004");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void batchRegistersEachEntryOnItsOwn() {
        String taken = AuthApi.uniqueName();
        AuthApi.register(app.appId(), taken);
        String fresh = AuthApi.uniqueName();
        JsonPath json = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", Map.of("list", List.of(
                Map.of("username", fresh, "password", PASSWORD),
                Map.of("username", taken, "password", "another-password"))));
        assertEquals(200, json.getInt("code"));
        assertEquals(fresh, json.getString("data[0].username"));
        assertEquals(true, json.getBoolean("data[0].success"));
        assertNull(json.get("data[0].reason"));
        assertEquals(true, json.getLong("data[0].user_id") > 0);
        assertEquals(false, json.getBoolean("data[1].success"));
        assertNull(json.get("data[1].user_id"));
        assertEquals("username is already registered", json.getString("data[1].reason"));
        AuthApi.post(asApp(app.appId()), "/token/user", Map.of("name", fresh, "password", PASSWORD));
    }

    /**
     * A batch whose answer was lost (the gateway gave up, the connection broke) is retried as it was: each entry
     * already stored with the same password answers its user_id, never 10004 without one (docs/api-decisions.md).
     */
    @Test
    void aRetriedBatchAnswersTheStoredUsersWithTheirIds() {
        String first = AuthApi.uniqueName();
        String second = AuthApi.uniqueName();
        Map<String, Object> batch = Map.of("list", List.of(Map.of("username", first, "password", PASSWORD),
                Map.of("username", second, "password", PASSWORD)));
        JsonPath stored = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", batch);
        JsonPath retried = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", batch);

        assertEquals(200, retried.getInt("code"), retried.prettify());
        for (int i = 0; i < 2; i++) {
            assertEquals(true, retried.getBoolean("data[" + i + "].success"), retried.prettify());
            assertEquals(stored.getLong("data[" + i + "].user_id"), retried.getLong("data[" + i + "].user_id"));
            assertNull(retried.get("data[" + i + "].reason"));
        }
        // another password is another person's claim on the name: taken, no id
        JsonPath claimed = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", Map.of("list",
                List.of(Map.of("username", second.toUpperCase(), "password", "another-password"))));
        assertEquals(false, claimed.getBoolean("data[0].success"));
        assertNull(claimed.get("data[0].user_id"));
        assertEquals("username is already registered", claimed.getString("data[0].reason"));
    }

    @Test
    void aNameRepeatedInOneBatchIsRegisteredOnce() {
        String name = AuthApi.uniqueName();
        JsonPath json = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", Map.of("list", List.of(
                Map.of("username", name, "password", PASSWORD),
                Map.of("username", name.toUpperCase(), "password", PASSWORD))));
        assertEquals(true, json.getBoolean("data[0].success"), json.prettify());
        assertEquals(false, json.getBoolean("data[1].success"), json.prettify());
        assertNull(json.get("data[1].user_id"));
        assertEquals("username is already registered", json.getString("data[1].reason"));
    }

    @Test
    void batchNeedsAnAdminTokenAndSaneSize() {
        String user = AuthApi.userToken(app.appId(), AuthApi.uniqueName(), "guid-1");
        Map<String, Object> one = Map.of("list", List.of(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD)));
        asToken(app.appId(), user).body(one).post("/user/register/batch").then().body("code", equalTo(10010));
        asApp(app.appId()).body(one).post("/user/register/batch").then().body("code", equalTo(10003));
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of())).post("/user/register/batch")
                .then().body("code", equalTo(10002)).body("message", startsWith("list"));
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD));
        }
        asToken(app.appId(), app.adminToken()).body(Map.of("list", many)).post("/user/register/batch")
                .then().body("code", equalTo(10002)).body("message", startsWith("list"));
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(Map.of("username", "1234", "password", PASSWORD))))
                .post("/user/register/batch").then().body("code", equalTo(10002)).body("message", startsWith("username"));
    }
}
