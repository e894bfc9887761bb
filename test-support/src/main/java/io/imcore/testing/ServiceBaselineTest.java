package io.imcore.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import org.junit.jupiter.api.Test;

/**
 * What every service must do from its first day: report ready with its database and Kafka, expose metrics,
 * and answer unknown paths with the envelope. A service's test extends it and adds {@code @QuarkusTest}.
 */
public abstract class ServiceBaselineTest {

    @Test
    void readinessIncludesDatabaseAndKafka() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItems("Database connections health check", "Kafka connection health check"));
    }

    @Test
    void unknownPathsGetTheEnvelope() {
        given().get("/no/such/endpoint").then().statusCode(200).contentType("application/json")
                .body("code", equalTo(10002)).body("data", nullValue()).body("message", startsWith("no such endpoint"));
    }

    @Test
    void openApiDocumentAndSwaggerUiAreServed() {
        given().get("/q/openapi").then().statusCode(200).body(org.hamcrest.Matchers.containsString("openapi:"));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void prometheusMetricsAreExposed() {
        given().get("/q/metrics").then().statusCode(200).body(org.hamcrest.Matchers.containsString("jvm_memory_used_bytes"));
    }
}
