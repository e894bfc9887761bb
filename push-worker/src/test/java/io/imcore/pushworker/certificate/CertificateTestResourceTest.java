package io.imcore.pushworker.certificate;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.CertificateTestSend;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.TestCertificates;
import io.imcore.simulators.Faults;
import io.imcore.simulators.registry.Simulators;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * push-worker's internal certificate test send against the Xiaomi simulator: the provider's answer comes back as it
 * was given, and nothing is counted.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
class CertificateTestResourceTest {

    private static final int XIAOMI = 3;

    @Inject
    Database database;

    private final Simulators simulators = ProvidersResource.simulators();
    private String appId;

    @BeforeEach
    void app() {
        appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        database.inTransaction(c -> {
            TestCertificates.insertAll(c, appId);
            return null;
        });
    }

    private ValidatableResponse testSend(String internalKey, Map<String, Object> body) {
        var request = given().contentType("application/json").body(body);
        if (internalKey != null) {
            request.header("internal-key", internalKey);
        }
        return request.post(CertificateTestSend.WORKER_PATH).then().statusCode(200);
    }

    private Map<String, Object> request(int provider, int environment, String token) {
        return Map.of("app_id", appId, "provider", provider, "environment", environment, "device_token", token,
                "title", "Test", "body", "from the test");
    }

    @Test
    void aTokenTheProviderTakesIsSentAndItsAnswerPassedThrough() {
        String token = "good-" + UUID.randomUUID();
        testSend(ProvidersResource.INTERNAL_KEY, request(XIAOMI, 1, token))
                .body("code", equalTo(200))
                .body("data.outcome", equalTo("sent"))
                .body("data.reason", nullValue())
                .body("data.provider_status", equalTo(200))
                .body("data.provider_code", equalTo("0"))
                .body("data.provider_message", containsString("Received push messages for 1 REGID"))
                .body("data.elapsed_ms", greaterThanOrEqualTo(0));
        assertEquals(1, simulators.get("vendor_b").recorder().deliveriesTo(token));
        assertEquals(0, tasksOfApp(), "a test send is not a push task");
    }

    @Test
    void aTokenTheProviderRefusesIsRejectedWithTheProvidersCodeAndText() {
        String token = Faults.INVALID_PREFIX + "-" + UUID.randomUUID();
        testSend(ProvidersResource.INTERNAL_KEY, request(XIAOMI, 1, token))
                .body("code", equalTo(200))
                .body("data.outcome", equalTo("rejected"))
                .body("data.reason", startsWith("20301"))
                .body("data.provider_status", equalTo(200))
                .body("data.provider_code", equalTo("20301"))
                .body("data.provider_message", containsString("No valid targets!"));
        assertEquals(0, simulators.get("vendor_b").recorder().deliveriesTo(token));
    }

    @Test
    void anEnvironmentWithoutACertificateIsRefused() {
        // TestCertificates has a development certificate for ios only
        testSend(ProvidersResource.INTERNAL_KEY, request(XIAOMI, 0, "good-x"))
                .body("code", equalTo(10002))
                .body("message", startsWith("provider: the app has no certificate for provider 3 and environment 0"));
    }

    @Test
    void onlyTheInternalKeyMayCallIt() {
        testSend(null, request(XIAOMI, 1, "good-y")).body("code", equalTo(10010));
        testSend("wrong", request(XIAOMI, 1, "good-y")).body("code", equalTo(10010));
        // the operator's key is not the services' (and push-worker, serving no operator endpoint, is not given it)
        given().header("platform-key", "test-platform-key").contentType("application/json")
                .body(request(XIAOMI, 1, "good-y")).post(CertificateTestSend.WORKER_PATH).then().statusCode(200)
                .body("code", equalTo(10010));
    }

    private int tasksOfApp() {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select count(*) from push_tasks where app_id = ?")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }
}
