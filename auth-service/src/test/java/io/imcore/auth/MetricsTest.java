package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.post;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The business counters on /q/metrics move with what happens. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class MetricsTest {

    private static double metric(String series) {
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.E+-]+)$", Pattern.MULTILINE).matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    @Test
    void tokensRegistrationsAndRefusalsAreCounted() {
        String issued = "imcore_auth_tokens_issued_total{operation=\"user\"}";
        String refused = "imcore_auth_logins_refused_total{reason=\"credentials\"}";
        String registered = "imcore_auth_users_registered_total";
        String loginFailedCode = "imcore_api_responses_total{code=\"10013\",route=\"/token/user\"}";
        double codeBefore = metric(loginFailedCode);
        double issuedBefore = metric(issued);
        double refusedBefore = metric(refused);
        double registeredBefore = metric(registered);

        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        AuthApi.register(app.appId(), name);
        post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD));
        post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD));
        post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", "wrong-password"));

        assertEquals(issuedBefore + 2, metric(issued));
        assertEquals(refusedBefore + 1, metric(refused));
        assertEquals(registeredBefore + 1, metric(registered));
        assertEquals(codeBefore + 1, metric(loginFailedCode), "envelope codes are counted");
    }

    @Test
    void httpAndKafkaProducerMetricsAreExposed() {
        AuthApi.newApp();
        String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("http_server_requests_seconds_count{")
                && text.contains("uri=\"/app/create\""), "HTTP server metrics per endpoint");
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("kafka_producer_"), "outbox producer metrics");
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("imcore_outbox_published_total"), "outbox counter");
        org.junit.jupiter.api.Assertions.assertTrue(text.contains("agroal_active_count"), "connection pool metrics");
    }
}
