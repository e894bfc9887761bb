package io.imcore.push.certificate;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.push.AppPerTest;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * POST /push/certificate/test on push-service's side: what it refuses before asking push-worker, the per-app quota,
 * and push-worker out of reach (the test profile points im.push.worker-url at a closed port). The send itself is
 * push-worker's CertificateTestSendTest and the console's ConsoleBrowserIT (both against the simulators).
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class CertificateTesterTest extends AppPerTest {

    private static Map<String, Object> request() {
        Map<String, Object> body = new HashMap<>();
        body.put("provider", 3);
        body.put("environment", 1);
        body.put("device_token", "a-xiaomi-regid");
        return body;
    }

    private ValidatableResponse testSend(Map<String, Object> body) {
        return api.asAdmin().body(body).post("/push/certificate/test").then().statusCode(200);
    }

    private static void badParameter(ValidatableResponse response, String message) {
        response.body("code", equalTo(10002)).body("data", nullValue()).body("message", startsWith(message));
    }

    @Test
    void missingOrWrongFieldsAre10002NamingTheField() {
        Map<String, Object> noToken = request();
        noToken.remove("device_token");
        badParameter(testSend(noToken), "device_token:");
        Map<String, Object> noProvider = request();
        noProvider.remove("provider");
        badParameter(testSend(noProvider), "provider:");
        Map<String, Object> badProvider = request();
        badProvider.put("provider", 8);
        badParameter(testSend(badProvider), "provider:");
        Map<String, Object> badEnvironment = request();
        badEnvironment.put("environment", 2);
        badParameter(testSend(badEnvironment), "environment:");
        Map<String, Object> tokenAsNumber = request();
        tokenAsNumber.put("device_token", 12);
        badParameter(testSend(tokenAsNumber), "device_token");
    }

    @Test
    void noCertificateForTheProviderAndEnvironmentIs10002() {
        badParameter(testSend(request()), "provider: the app has no certificate for provider 3 and environment 1");
        api.asAdmin().body(CertificateTest.validBody(3)).post("/push/certificate").then().body("code", equalTo(200));
        Map<String, Object> development = request();
        development.put("environment", 0);
        badParameter(testSend(development), "provider: the app has no certificate for provider 3 and environment 0");
    }

    @Test
    void pushWorkerOutOfReachIs50003AtOnce() {
        api.asAdmin().body(CertificateTest.validBody(3)).post("/push/certificate").then().body("code", equalTo(200));
        long started = System.nanoTime();
        testSend(request()).body("code", equalTo(50003))
                .body("message", startsWith("push-worker did not answer the test send"));
        assertTrue(System.nanoTime() - started < 5_000_000_000L, "answered within seconds");
    }

    @Test
    void theAppsQuotaIsTenAMinuteByDefaultAndAnsweredWith10015AndRetryAfter() {
        // the default, as the operator sees it
        given().header("platform-key", "test-platform-key").header("app_id", api.appId).get("/push/quota").then()
                .body("data.find { it.quota == 'push-certificate-test' }.limit", equalTo(10))
                .body("data.find { it.quota == 'push-certificate-test' }.period_seconds", equalTo(60))
                .body("data.find { it.quota == 'push-certificate-test' }.burst", equalTo(10));
        // lowered for this app, so that the refusal does not depend on how fast this machine is
        given().header("platform-key", "test-platform-key").header("app_id", api.appId).contentType("application/json")
                .body(Map.of("quota", "push-certificate-test", "limit", 1, "period_seconds", 3600, "burst", 2))
                .put("/push/quota").then().body("code", equalTo(200));
        testSend(request()).body("code", equalTo(10002));
        testSend(request()).body("code", equalTo(10002));
        Response refused = api.asAdmin().body(request()).post("/push/certificate/test");
        assertEquals(200, refused.statusCode());
        assertEquals(10015, refused.jsonPath().getInt("code"));
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter > 60 && retryAfter <= 3600, "Retry-After " + retryAfter);
        // another app's quota is its own
        PushApi other = PushApi.newApp(database);
        other.asAdmin().body(request()).post("/push/certificate/test").then().body("code", equalTo(10002));
    }
}
