package io.imcore.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.context.IdentityDirectory.UserState;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** message-service learns apps and users from auth-service's events (real topic), never from auth's tables. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class AuthViewTest {

    @Inject
    IdentityDirectory directory;

    private static <T> T eventually(Supplier<T> read, java.util.function.Predicate<T> done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        T value = read.get();
        while (!done.test(value) && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            value = read.get();
        }
        return value;
    }

    private static void publish(String key, String json) {
        TopicWriter.send("auth.events", key, json);
    }

    @Test
    void appsFollowCreationAndRotation() throws Exception {
        String app = "app" + UUID.randomUUID().toString().substring(0, 8);
        assertTrue(directory.adminTokenVersion(app).isEmpty(), "unknown before its event");
        publish(app, "{\"v\":1,\"type\":\"app.created\",\"app_id\":\"" + app + "\",\"admin_token_version\":1,\"at\":1}");
        assertEquals(OptionalInt.of(1), eventually(() -> directory.adminTokenVersion(app), OptionalInt::isPresent));
        publish(app, "{\"v\":1,\"type\":\"app.admin_token_rotated\",\"app_id\":\"" + app + "\",\"admin_token_version\":2,\"at\":2}");
        assertEquals(OptionalInt.of(2), eventually(() -> directory.adminTokenVersion(app), v -> v.getAsInt() == 2));
    }

    @Test
    void usersFollowRevocationAndNeverMoveBackwards() throws Exception {
        String app = "app" + UUID.randomUUID().toString().substring(0, 8);
        String key = app + ":77";
        publish(key, "{\"v\":1,\"type\":\"user.registered\",\"app_id\":\"" + app + "\",\"user_id\":77,"
                + "\"token_version\":1,\"disabled\":false,\"at\":1}");
        assertEquals(Optional.of(new UserState(1, false)), eventually(() -> directory.user(app, 77), Optional::isPresent));

        publish(key, "{\"v\":1,\"type\":\"user.changed\",\"app_id\":\"" + app + "\",\"user_id\":77,"
                + "\"token_version\":2,\"disabled\":true,\"at\":2}");
        // a replayed older state, an unreadable record, then a marker on the same key (so the same partition, in
        // order): once the marker is seen, everything before it was applied, and the view must hold the newest state
        publish(key, "{\"v\":1,\"type\":\"user.registered\",\"app_id\":\"" + app + "\",\"user_id\":77,"
                + "\"token_version\":1,\"disabled\":false,\"at\":1}");
        publish(key, "not json");
        publish(key, "{\"v\":1,\"type\":\"user.registered\",\"app_id\":\"" + app + "\",\"user_id\":78,"
                + "\"token_version\":1,\"disabled\":false,\"at\":3}");
        eventually(() -> directory.user(app, 78), Optional::isPresent);
        assertEquals(Optional.of(new UserState(2, true)), directory.user(app, 77));
        assertTrue(directory.user(app, 79).isEmpty());
    }

    /**
     * The connector's consumer still publishes the client's metrics (docs/operations.md reads the view's lag there):
     * a lag series of the auth view's consumer, whose client id the connector names after the channel.
     */
    @Test
    void theFeedsConsumerLagIsOnMetrics() throws Exception {
        String app = "app" + UUID.randomUUID().toString().substring(0, 8);
        publish(app, "{\"v\":1,\"type\":\"app.created\",\"app_id\":\"" + app + "\",\"admin_token_version\":1,\"at\":1}");
        eventually(() -> directory.adminTokenVersion(app), OptionalInt::isPresent);
        io.restassured.RestAssured.given().get("/q/metrics").then().statusCode(200)
                .body(org.hamcrest.Matchers.matchesPattern(
                        "(?s).*\\nkafka_consumer_fetch_manager_records_lag_max\\{[^}]*client_id=\"kafka-consumer-auth-view\".*"));
    }
}
