package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Password guessing and self-registration are throttled (docs/throttling.md), here with short delays: 3 free wrong
 * passwords per login name, then 2 s, 4 s (the cap); 6 per address; 3 registrations per address and hour. The test
 * client plays several clients through X-Forwarded-For (127.0.0.1 is a trusted proxy in tests).
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@TestProfile(ThrottleTest.ShortDelays.class)
class ThrottleTest {

    public static class ShortDelays implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "im.throttle.login-account.free-failures", "3",
                    "im.throttle.login-account.first-delay", "2S",
                    "im.throttle.login-account.max-delay", "4S",
                    "im.throttle.login-account.lockout-after", "8",
                    "im.throttle.login-address.free-failures", "6",
                    "im.throttle.login-address.first-delay", "2S",
                    "im.throttle.login-address.max-delay", "4S",
                    "im.throttle.registration.limit", "3",
                    "im.throttle.registration.period", "1H",
                    "im.throttle.registration.burst", "3");
        }
    }

    private static final String LOCKED =
            "account locked after too many failed logins: an admin of the app must unlock it (PUT /user/enable)";

    private AuthApi.App app;

    @BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    private static String someAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "198.51." + random.nextInt(256) + "." + (1 + random.nextInt(254));
    }

    private Response call(String path, String address, Object body) {
        Response response = AuthApi.asApp(app.appId()).header("X-Forwarded-For", address).body(body).post(path);
        assertEquals(200, response.statusCode(), "the envelope rule holds for 10015 too");
        return response;
    }

    private Response login(String address, String name, String password) {
        return call("/token/login", address, Map.of("login_name", name, "password", password));
    }

    /** The code of the answer; a 10015 must say when to retry, in its message and in Retry-After. */
    private static int code(Response answer) {
        int code = answer.jsonPath().getInt("code");
        if (code == 10015 && answer.jsonPath().getString("message").startsWith("account locked")) {
            assertEquals(LOCKED, answer.jsonPath().getString("message"));
            assertEquals(null, answer.header("Retry-After"), "a lockout has no end to wait for");
        } else if (code == 10015) {
            String retryAfter = answer.header("Retry-After");
            assertNotNull(retryAfter, "10015 carries Retry-After");
            assertTrue(Long.parseLong(retryAfter) >= 1);
            assertEquals("too many requests: retry after " + retryAfter
                    + ("1".equals(retryAfter) ? " second" : " seconds"), answer.jsonPath().getString("message"));
        } else {
            assertEquals(null, answer.header("Retry-After"), "only 10015 carries Retry-After");
        }
        return code;
    }

    @Test
    void repeatedWrongPasswordsGet10015SoonAndTheOwnerLogsInAfterTheWait() throws Exception {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        String attacker = someAddress();
        int firstThrottled = 0;
        for (int attempt = 1; attempt < 20 && firstThrottled == 0; attempt++) {
            if (code(login(attacker, name, "wrong-pass-" + attempt)) == 10015) {
                firstThrottled = attempt;
            }
        }
        assertEquals(5, firstThrottled, "3 free failures, the 4th starts a delay, the 5th is refused");
        String owner = someAddress();
        Response first = login(owner, name, PASSWORD);
        if (code(first) == 10015) {
            // still in the delay (a fast machine): the owner waits as told, once
            Thread.sleep(Long.parseLong(first.header("Retry-After")) * 1000);
            first = login(owner, name, PASSWORD);
        }
        assertEquals(200, code(first), "after the wait the owner logs in");
        assertEquals(10013, code(login(owner, name, "one-typo")), "a success started the count again");
        assertEquals(10013, code(login(owner, name, "two-typos")));
    }

    @Test
    void delaysGrowUpToTheCap() throws Exception {
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        List<String> answers = new ArrayList<>();
        while (answers.stream().filter(a -> !a.equals("10013")).count() < 3) {
            Response answer = login(someAddress(), name, "wrong");
            if (code(answer) == 10015) {
                answers.add(answer.header("Retry-After"));
                // a refused call does not count: wait the delay out, the next wrong password counts again
                Thread.sleep(Long.parseLong(answer.header("Retry-After")) * 1000);
            } else {
                answers.add(Integer.toString(code(answer)));
            }
        }
        assertEquals(List.of("10013", "10013", "10013", "10013", "2", "10013", "4", "10013", "4"), answers,
                "3 free failures, then waits of 2 s and 4 s, capped at 4 s");
    }

    @Test
    void unknownNameAndWrongPasswordAnswerAlike() {
        String known = AuthApi.uniqueName();
        AuthApi.register(app.appId(), known);
        String unknown = AuthApi.uniqueName();
        List<String> knownAnswers = new ArrayList<>();
        List<String> unknownAnswers = new ArrayList<>();
        String fromA = someAddress();
        String fromB = someAddress();
        for (int attempt = 0; attempt < 6; attempt++) {
            knownAnswers.add(answer(login(fromA, known, "wrong")));
            unknownAnswers.add(answer(login(fromB, unknown, "wrong")));
        }
        assertEquals(knownAnswers, unknownAnswers);
        assertTrue(knownAnswers.subList(0, 4).stream().allMatch(a -> a.startsWith("10013 ")), knownAnswers.toString());
        assertTrue(knownAnswers.get(4).startsWith("10015 "), "both delayed alike: " + knownAnswers);
    }

    @Test
    void theEighthConsecutiveFailureLocksTheAccountUntilAnAdminEnablesIt() throws Exception {
        String known = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), known);
        String unknown = AuthApi.uniqueName();
        List<String> knownAnswers = new ArrayList<>();
        List<String> unknownAnswers = new ArrayList<>();
        while (!knownAnswers.contains("10015 " + LOCKED) || !unknownAnswers.contains("10015 " + LOCKED)) {
            Response forKnown = login(someAddress(), known, "wrong");
            Response forUnknown = login(someAddress(), unknown, "wrong");
            knownAnswers.add(answer(forKnown));
            unknownAnswers.add(answer(forUnknown));
            String wait = forKnown.header("Retry-After");
            if (wait != null) {
                // a delay: waited out, so that every wrong password counts (a refused call does not)
                Thread.sleep(Long.parseLong(wait) * 1000);
            }
            assertTrue(knownAnswers.size() < 30, "never locked: " + knownAnswers);
        }
        assertEquals(knownAnswers, unknownAnswers, "an unknown name is locked alike: nothing is enumerated");
        assertEquals(8, knownAnswers.stream().filter(a -> a.startsWith("10013 ")).count(), knownAnswers.toString());
        assertEquals("10015 " + LOCKED, knownAnswers.get(knownAnswers.size() - 1));
        assertEquals(LOCKED, login(someAddress(), known, PASSWORD).jsonPath().getString("message"),
                "the right password does not open a locked account");
        Thread.sleep(4_000);
        assertEquals(LOCKED, login(someAddress(), known, PASSWORD).jsonPath().getString("message"),
                "no delay runs the lockout out");

        AuthApi.asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).put("/user/enable")
                .then().statusCode(200);
        assertEquals(200, code(login(someAddress(), known, PASSWORD)), "the admin's enable unlocked it");
    }

    /**
     * Code and message, with the number of seconds of a delay left out: two calls a moment apart may fall on either
     * side of a second, and that says nothing about whether the account exists.
     */
    private static String answer(Response response) {
        String message = response.jsonPath().getString("message");
        String withoutWait = message == null ? null : message.replaceAll("retry after \\d+ seconds?", "retry after N");
        return code(response) + " " + withoutWait;
    }

    @Test
    void oneAddressGuessingManyAccountsIsThrottledOtherAddressesAreNot() {
        String attacker = someAddress();
        List<Integer> codes = new ArrayList<>();
        for (int account = 0; account < 8; account++) {
            codes.add(code(login(attacker, AuthApi.uniqueName(), "123456")));
        }
        assertEquals(List.of(10013, 10013, 10013, 10013, 10013, 10013, 10013, 10015), codes,
                "6 free per address, the 7th starts a delay");
        assertEquals(10013, code(login(someAddress(), AuthApi.uniqueName(), "123456")));
        String metrics = RestAssured.get("/q/metrics").asString();
        assertTrue(metrics.contains("imcore_throttled_total{limit=\"address\",route=\"/token/login\"}"), metrics);
    }

    @Test
    void everyTokenOperationAndThePasswordChangeCount() {
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String token = AuthApi.post(AuthApi.asApp(app.appId()), "/token/id", Map.of("user_id", userId,
                "password", PASSWORD)).getString("data.token");
        String address = someAddress();
        for (int attempt = 0; attempt < 4; attempt++) {
            Response wrongOld = AuthApi.asToken(app.appId(), token).header("X-Forwarded-For", address)
                    .body(Map.of("old_password", "guess-" + attempt, "new_password", "new-pass-1"))
                    .post("/user/change_password");
            assertEquals(10013, code(wrongOld));
        }
        assertEquals(10015, code(call("/token/id", address, Map.of("user_id", userId, "password", PASSWORD))),
                "the password change shares the account's counter with /token/id");
        String other = AuthApi.uniqueName();
        AuthApi.register(app.appId(), other);
        for (int attempt = 0; attempt < 4; attempt++) {
            assertEquals(10013, code(call("/token/user", someAddress(), Map.of("name", other, "password", "x"))));
        }
        assertEquals(10015, code(login(someAddress(), other.toUpperCase(), "x")),
                "/token/user and /token/login share the user name's counter, without regard to case");
    }

    @Test
    void selfRegistrationIsLimitedPerAddressButNotTheAdminBatch() {
        String address = someAddress();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, code(register(address)));
        }
        Response refused = register(address);
        assertEquals(10015, code(refused));
        assertTrue(Long.parseLong(refused.header("Retry-After")) > 60, "the next one in 20 minutes (3 an hour)");
        assertEquals(200, code(register(someAddress())));
        Response batch = AuthApi.asToken(app.appId(), app.adminToken()).header("X-Forwarded-For", address)
                .body(Map.of("list", List.of(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD))))
                .post("/user/register/batch");
        assertEquals(200, code(batch));
    }

    private Response register(String address) {
        return call("/user/register/v2", address, Map.of("username", AuthApi.uniqueName(), "password", PASSWORD));
    }
}
