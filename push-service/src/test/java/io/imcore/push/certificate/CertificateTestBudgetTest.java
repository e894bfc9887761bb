package io.imcore.push.certificate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.push.AppPerTest;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * POST /push/certificate/test with a push-worker that never answers: push-service answers itself within its budget
 * (im.push.certificate-test.timeout, 7 s by default), before the gateway's 9 s read timeout would answer for it.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@QuarkusTestResource(value = SilentPushWorker.class, restrictToAnnotatedClass = true)
class CertificateTestBudgetTest extends AppPerTest {

    /** proxy_read_timeout of deploy/gateway/render-nginx.sh and the Ingress. */
    private static final Duration GATEWAY = Duration.ofSeconds(9);

    @Test
    void aHangingPushWorkerIsAnswered50003WithinTheBudget() {
        api.asAdmin().body(CertificateTest.validBody(3)).post("/push/certificate").then().statusCode(200);
        long start = System.nanoTime();
        JsonPath answer = api.asAdmin().body(Map.of("provider", 3, "environment", 1, "device_token", "a-regid"))
                .post("/push/certificate/test").then().statusCode(200).extract().jsonPath();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertEquals(50003, answer.getInt("code"), answer.prettify());
        assertEquals("push-worker did not answer the test send within 7000 ms; the provider may still deliver it",
                answer.getString("message"));
        assertTrue(took.compareTo(GATEWAY) < 0, "answered after " + took + ", the gateway gives up at " + GATEWAY);
    }
}
