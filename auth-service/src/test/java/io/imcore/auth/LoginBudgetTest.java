package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.api.ApiException;
import io.imcore.testing.InfrastructureResource;
import io.imcore.throttle.CredentialThrottle;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The wrong-password budget holds under concurrency and across the names of one account (docs/throttling.md):
 * 3 free failures, and a first delay of a minute, so that no delay runs out while a test runs. Addresses are
 * generous here: the per-account limit is what is tested.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@TestProfile(LoginBudgetTest.LongDelays.class)
class LoginBudgetTest {

    public static class LongDelays implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "im.throttle.login-account.free-failures", "3",
                    "im.throttle.login-account.first-delay", "1M",
                    "im.throttle.login-account.max-delay", "1M",
                    "im.throttle.login-address.free-failures", "1000");
        }
    }

    /** 3 free failures and the 4th, which starts the delay: what reaches bcrypt before the first wait. */
    private static final int BUDGET = 4;

    @Inject
    MeterRegistry registry;

    @Inject
    CredentialThrottle throttle;

    private double verifications() {
        return registry.counter("imcore.auth.password.verifications").count();
    }

    private static int code(Response answer) {
        assertEquals(200, answer.statusCode());
        return answer.jsonPath().getInt("code");
    }

    @Test
    void fiftyParallelWrongGuessesReachBcryptOnlyWithinTheAccountsBudget() throws Exception {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        double before = verifications();
        ExecutorService pool = Executors.newFixedThreadPool(50);
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (int guess = 0; guess < 50; guess++) {
                String password = "wrong-guess-" + guess;
                answers.add(pool.submit(() -> code(AuthApi.asApp(app.appId())
                        .body(Map.of("login_name", name, "password", password)).post("/token/login"))));
            }
            int wrong = 0;
            int refused = 0;
            for (Future<Integer> answer : answers) {
                int code = answer.get();
                wrong += code == 10013 ? 1 : 0;
                refused += code == 10015 ? 1 : 0;
            }
            assertEquals(BUDGET, wrong, "only the budget's guesses were judged");
            assertEquals(50 - BUDGET, refused);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(BUDGET, verifications() - before, 0.0, "bcrypt ran once per counted guess, never more");
    }

    @Test
    void guessesThroughEveryNameOfOneUserShareOneBudget() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        String email = name + "@example.com";
        String mobile = "1" + (System.nanoTime() % 10_000_000_000L + 10_000_000_000L);
        long userId = AuthApi.post(AuthApi.asApp(app.appId()), "/user/register/v2", Map.of("username", name,
                "password", PASSWORD, "email", email, "mobile", mobile)).getLong("data.user_id");
        List<Integer> codes = new ArrayList<>();
        for (String loginName : List.of(name, email.toUpperCase(), mobile)) {
            codes.add(code(AuthApi.asApp(app.appId()).body(Map.of("login_name", loginName, "password", "wrong"))
                    .post("/token/login")));
        }
        codes.add(code(AuthApi.asApp(app.appId()).body(Map.of("user_id", userId, "password", "wrong"))
                .post("/token/id")));
        codes.add(code(AuthApi.asApp(app.appId()).body(Map.of("name", name, "password", PASSWORD))
                .post("/token/user")));
        assertEquals(List.of(10013, 10013, 10013, 10013, 10015), codes,
                "user name, e-mail, mobile and id count on one budget: the 4th starts the delay for all of them");
    }

    @Test
    void parallelAttemptsOfManyAccountsFromOneAddressWaitForEachOtherAndAreAllCounted() throws Exception {
        // without bcrypt in between, so that attempts meet on the address's row as busy logins from one NAT do
        String appId = "parallel-" + System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<Integer>> refusals = new ArrayList<>();
        try {
            for (int t = 0; t < 16; t++) {
                int thread = t;
                refusals.add(pool.submit(() -> {
                    int refused = 0;
                    for (int i = 0; i < 100; i++) {
                        String account = "id:" + (thread * 1000 + i);
                        try {
                            throttle.attempt("/token/id", appId, account, "203.0.113.7");
                            throttle.succeeded(appId, account, "203.0.113.7");
                        } catch (ApiException e) {
                            refused++;
                        }
                    }
                    return refused;
                }));
            }
            int refused = 0;
            for (Future<Integer> r : refusals) {
                refused += r.get();
            }
            assertEquals(0, refused, "no account nor the address is in a delay: every attempt is counted");
        } finally {
            pool.shutdownNow();
        }
    }
}
