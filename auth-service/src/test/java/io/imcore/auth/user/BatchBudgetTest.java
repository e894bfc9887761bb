package io.imcore.auth.user;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.auth.AuthApi;
import io.imcore.auth.AuthConfig;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusMock;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /user/register/batch} past its budget (1 s here, 7 s by default: below the gateway's 9 s) stores nothing
 * and says so, whether the time goes in the password hashes or in the database; a retry then registers the batch.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@TestProfile(BatchBudgetTest.OneSecondBudget.class)
class BatchBudgetTest {

    public static class OneSecondBudget implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.auth.batch-register-budget", "1S");
        }
    }

    /** bcrypt at production cost on a busy machine: every hash takes half a second. */
    static class SlowHasher extends PasswordHasher {
        SlowHasher(AuthConfig config, MeterRegistry registry) {
            super(config, registry);
        }

        @Override
        public String hash(String password) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.hash(password);
        }
    }

    @Inject
    AuthConfig config;
    @Inject
    MeterRegistry registry;

    private AuthApi.App app;

    @BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    @Test
    void hashingPastTheBudgetStoresNothingAndAnswers50003() throws SQLException {
        QuarkusMock.installMockForType(new SlowHasher(config, registry), PasswordHasher.class);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            entries.add(Map.of("username", AuthApi.uniqueName(), "password", PASSWORD));
        }

        JsonPath answer = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", Map.of("list", entries));

        assertEquals(0, storedUsers(app.appId()), "users stored although the call answered " + answer.getInt("code"));
        assertPastBudget(answer);
    }

    @Test
    void aBatchWaitingOnTheDatabasePastTheBudgetStoresNothingAndARetryRegistersIt() throws SQLException {
        String first = AuthApi.uniqueName();
        String second = AuthApi.uniqueName();
        Map<String, Object> batch = Map.of("list", List.of(Map.of("username", first, "password", PASSWORD),
                Map.of("username", second, "password", PASSWORD)));
        JsonPath answer;
        Duration took;
        try (Connection other = connect()) {
            // another registration of the second name, not yet committed: the batch's insert waits on it
            other.setAutoCommit(false);
            try (PreparedStatement insert = other.prepareStatement(
                    "insert into users (app_id, username, password_hash) values (?, ?, 'not-a-hash')")) {
                insert.setString(1, app.appId());
                insert.setString(2, second);
                insert.executeUpdate();
            }
            long start = System.nanoTime();
            answer = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", batch);
            took = Duration.ofNanos(System.nanoTime() - start);
            other.rollback();
        }

        assertEquals(0, storedUsers(app.appId()), "users stored although the call answered " + answer.prettify());
        assertPastBudget(answer);
        // the budget, not the shared statement_timeout (6 s), ended the wait
        assertTrue(took.compareTo(Duration.ofSeconds(5)) < 0, "answered after " + took);
        JsonPath retried = post(asToken(app.appId(), app.adminToken()), "/user/register/batch", batch);
        assertEquals(true, retried.getBoolean("data[0].success"), retried.prettify());
        assertEquals(true, retried.getBoolean("data[1].success"), retried.prettify());
        assertEquals(2, storedUsers(app.appId()));
    }

    private static void assertPastBudget(JsonPath answer) {
        assertEquals(50003, answer.getInt("code"), answer.prettify());
        assertEquals("the batch did not finish within 1000 ms: nothing was stored; safe to retry (with fewer entries"
                + " if it happens again)", answer.getString("message"));
    }

    private static long storedUsers(String appId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement count = connection.prepareStatement("select count(*) from users where app_id = ?")) {
            count.setString(1, appId);
            try (ResultSet r = count.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(config("quarkus.datasource.jdbc.url"), config("quarkus.datasource.username"),
                config("quarkus.datasource.password"));
    }

    private static String config(String key) {
        return ConfigProvider.getConfig().getValue(key, String.class);
    }
}
