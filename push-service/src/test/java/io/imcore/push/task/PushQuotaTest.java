package io.imcore.push.task;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-app quota of /push/notify and its operator override at /push/quota (docs/throttling.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PushQuotaTest {

    private static final String TEXT_TO_ALL =
            "{\"audience\":\"all\",\"setting\":{},\"message\":{\"type\":\"text\",\"title\":\"Hi\",\"body\":\"there\"}}";

    @Inject
    Database database;

    @Test
    void anAppOverItsNotifyQuotaGets10015AndTheOperatorCanRaiseIt() {
        PushApi api = PushApi.newApp(database);
        given().header("platform-key", "test-platform-key").header("app_id", api.appId).contentType(ContentType.JSON)
                .body(Map.of("quota", "push-notify", "limit", 1, "period_seconds", 60, "burst", 2))
                .put("/push/quota").then().statusCode(200)
                .body("data[0].quota", org.hamcrest.Matchers.equalTo("push-notify"))
                .body("data[0].overridden", org.hamcrest.Matchers.equalTo(true));
        List<Integer> codes = new ArrayList<>();
        Response last = null;
        for (int i = 0; i < 3; i++) {
            last = api.asAdmin().body(TEXT_TO_ALL).post("/push/notify");
            codes.add(last.jsonPath().getInt("code"));
        }
        assertEquals(List.of(200, 200, 10015), codes);
        assertNotNull(last.header("Retry-After"));

        given().header("platform-key", "test-platform-key").header("app_id", api.appId)
                .delete("/push/quota?quota=push-notify").then().statusCode(200)
                .body("data[0].overridden", org.hamcrest.Matchers.equalTo(false))
                .body("data[0].burst", org.hamcrest.Matchers.equalTo(50));
        assertEquals(200, api.asAdmin().body(TEXT_TO_ALL).post("/push/notify").jsonPath().getInt("code"));
    }
}
