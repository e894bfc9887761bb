package io.imcore.auth;

import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.fuzz.EndpointFuzzer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every route of auth-service, read from its OpenAPI document, fuzzed (docs/testing.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class FuzzTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void everyRouteAnswersTheEnvelopeWhateverItIsSent() {
        AuthApi.App app = AuthApi.newApp();
        // the operator's calls act on an app of their own: rotating its admin token must not revoke the one used here
        AuthApi.App operated = AuthApi.newApp();
        String userToken = AuthApi.userToken(app.appId(), AuthApi.uniqueName(), "fuzz-device");
        EndpointFuzzer.of(base)
                .caller("user", Map.of("app_id", app.appId(), "access-token", userToken))
                .caller("admin", Map.of("app_id", app.appId(), "access-token", app.adminToken()))
                .caller("operator", Map.of("app_id", operated.appId(), "platform-key", AuthApi.PLATFORM_KEY))
                .caller("service", Map.of("internal-key", AuthApi.INTERNAL_KEY))
                .knownValue("app_id", operated.appId())
                .notEnvelope("GET", "/internal/jwks", "a JWK Set (RFC 7517) that token verifiers read, not an API answer")
                .assertEveryAnswerIsTheEnvelope();
    }
}
