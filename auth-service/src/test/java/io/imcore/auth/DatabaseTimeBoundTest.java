package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A database that does not answer gives the envelope 50003 within the bound of docs/operations.md ("Database time
 * bounds"), never a hang. The users table is held under an exclusive lock by another session, so the login's query
 * waits as it would on an overloaded server, until the shared statement_timeout (6 s) cancels it; the lock is
 * released afterwards, so the shared embedded PostgreSQL serves the other tests of this JVM as before.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class DatabaseTimeBoundTest {

    /** statement_timeout (6 s) plus the request's own work, below the gateway's proxy_read_timeout (9 s). */
    private static final Duration BOUND = Duration.ofSeconds(9);

    @Test
    void aLoginWaitingOnTheDatabaseAnswers50003WithinTheBound() throws Exception {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);

        try (Connection blocker = DriverManager.getConnection(config("quarkus.datasource.jdbc.url"),
                config("quarkus.datasource.username"), config("quarkus.datasource.password"))) {
            blocker.setAutoCommit(false);
            try (Statement lock = blocker.createStatement()) {
                lock.execute("lock table users in access exclusive mode");
            }
            long start = System.nanoTime();
            JsonPath answer = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            blocker.rollback();

            assertEquals(50003, answer.getInt("code"), answer.prettify());
            assertTrue(answer.getString("message").contains("safe to retry"), answer.prettify());
            assertTrue(took.compareTo(BOUND) < 0, "answered after " + took);
        }
        // the lock is gone: the same login succeeds again
        assertEquals(200, post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD))
                .getInt("code"));
    }

    private static String config(String key) {
        return ConfigProvider.getConfig().getValue(key, String.class);
    }
}
