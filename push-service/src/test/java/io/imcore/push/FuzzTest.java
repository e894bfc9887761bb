package io.imcore.push;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.fuzz.EndpointFuzzer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;
import io.imcore.push.receipt.ReceiptKeyStore;
import org.junit.jupiter.api.Test;

/** Every route of push-service, the providers' receipt callbacks included, read from its OpenAPI document, fuzzed. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class FuzzTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    Database database;

    @Inject
    ReceiptKeyStore receiptKeys;

    @Test
    void everyRouteAnswersTheEnvelopeWhateverItIsSent() {
        PushApi app = PushApi.newApp(database);
        long user = app.newUser();
        app.newDevice(user, 1);
        EndpointFuzzer.of(base)
                .caller("user", Map.of("app_id", app.appId, "access-token", app.userToken(user, 1)))
                .caller("admin", Map.of("app_id", app.appId, "access-token", app.adminToken()))
                // the receipt callbacks authenticate by the app's key in the URL, on a channel that has receipts
                .knownValue("app_id", app.appId)
                .knownValue("key", receiptKeys.getOrCreate(app.appId))
                .knownValue("channel", "vendor_b")
                .assertEveryAnswerIsTheEnvelope();
    }
}
