package io.imcore.message;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.fuzz.EndpointFuzzer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every route of message-service, /internal/live/notify included, read from its OpenAPI document, fuzzed. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class FuzzTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    Database database;

    @Test
    void everyRouteAnswersTheEnvelopeWhateverItIsSent() {
        MessageApi app = MessageApi.newApp(database);
        long user = app.newUser();
        EndpointFuzzer.of(base)
                .caller("user", Map.of("app_id", app.appId, "access-token", app.userToken(user, 1)))
                .caller("admin", Map.of("app_id", app.appId, "access-token", app.adminToken()))
                .caller("operator", Map.of("platform-key", "test-platform-key"))
                .caller("service", Map.of("internal-key", "test-internal-key"))
                .assertEveryAnswerIsTheEnvelope();
    }
}
