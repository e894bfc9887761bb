package io.imcore.auth.app;

import static io.imcore.auth.AuthApi.PLATFORM_KEY;
import static io.imcore.auth.AuthApi.asToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.imcore.auth.AuthApi;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class AppResourceTest {

    @Test
    void createReturnsAppIdAndAWorkingAdminToken() {
        AuthApi.App app = AuthApi.newApp();
        org.junit.jupiter.api.Assertions.assertTrue(app.appId().matches("[a-z2-9]{16}"), app.appId());
        asToken(app.appId(), app.adminToken()).get("/user/device/list")
                .then().statusCode(200)
                // an admin without user_id header has no devices to list: 10002 names the header, not a token problem
                .body("code", equalTo(10002)).body("message", matchesPattern(".*user_id.*"));
    }

    @Test
    void createAnswersTheEnvelopeFieldByField() {
        given().header("platform-key", PLATFORM_KEY).contentType(ContentType.JSON).body("{}").post("/app/create")
                .then().statusCode(200)
                .body("code", equalTo(200)).body("message", nullValue())
                .body("data.app_id", notNullValue()).body("data.admin_token", notNullValue());
    }

    @Test
    void createWithoutOrWithWrongPlatformKeyIsRefused() {
        given().contentType(ContentType.JSON).body("{}").post("/app/create")
                .then().statusCode(200).body("code", equalTo(10010)).body("data", nullValue());
        given().header("platform-key", "guess").contentType(ContentType.JSON).body("{}").post("/app/create")
                .then().statusCode(200).body("code", equalTo(10010));
    }

    @Test
    void rotatingTheAdminTokenRevokesTheOldOne() {
        AuthApi.App app = AuthApi.newApp();
        String fresh = given().header("platform-key", PLATFORM_KEY).header("app_id", app.appId())
                .post("/app/admin_token").then().statusCode(200)
                .body("code", equalTo(200)).body("data.app_id", equalTo(app.appId()))
                .extract().path("data.admin_token");
        Map<String, Object> batch = Map.of("list", java.util.List.of(Map.of("username", AuthApi.uniqueName(),
                "password", AuthApi.PASSWORD)));
        asToken(app.appId(), app.adminToken()).body(batch).post("/user/register/batch")
                .then().body("code", equalTo(10008));
        asToken(app.appId(), fresh).body(batch).post("/user/register/batch")
                .then().body("code", equalTo(200)).body("data[0].success", equalTo(true));
    }

    @Test
    void rotatingAnUnknownAppIs40000() {
        given().header("platform-key", PLATFORM_KEY).header("app_id", "nosuchapp").post("/app/admin_token")
                .then().statusCode(200).body("code", equalTo(40000));
        given().header("platform-key", PLATFORM_KEY).post("/app/admin_token")
                .then().statusCode(200).body("code", equalTo(40000));
    }

    @Test
    void rotatingWithoutThePlatformKeyIsRefusedAndKeepsTheToken() {
        AuthApi.App app = AuthApi.newApp();
        given().header("app_id", app.appId()).post("/app/admin_token").then().statusCode(200).body("code", equalTo(10010));
        given().header("platform-key", "guess").header("app_id", app.appId()).post("/app/admin_token")
                .then().statusCode(200).body("code", equalTo(10010));
        asToken(app.appId(), app.adminToken()).header("user_id", 1).get("/user/device/list")
                .then().body("code", equalTo(10000));
    }

    @Test
    void oversizeAppNameIsRefused() {
        given().header("platform-key", PLATFORM_KEY).contentType(ContentType.JSON)
                .body(Map.of("name", "x".repeat(129))).post("/app/create")
                .then().statusCode(200).body("code", equalTo(10002)).body("message", matchesPattern("name: .*"));
    }

    @Test
    void blankAppNameIsRefusedAndAnAbsentOneIsTheAppId() {
        for (String blank : new String[] {"", "   ", "\t\n"}) {
            given().header("platform-key", PLATFORM_KEY).contentType(ContentType.JSON)
                    .body(Map.of("name", blank)).post("/app/create")
                    .then().statusCode(200).body("code", equalTo(10002))
                    .body("message", equalTo("name: must not be blank (leave it out to name the app after its app_id)"))
                    .body("data", nullValue());
        }
        String appId = given().header("platform-key", PLATFORM_KEY).contentType(ContentType.JSON).body("{}")
                .post("/app/create").then().body("code", equalTo(200)).extract().path("data.app_id");
        given().header("platform-key", PLATFORM_KEY).get("/app/list")
                .then().body("data.list.find { it.app_id == '" + appId + "' }.name", equalTo(appId));
    }

    @Test
    void listShowsEveryAppWithItsCreationTimeAndTokenVersion() {
        long before = System.currentTimeMillis();
        AuthApi.App app = AuthApi.newApp();
        given().header("platform-key", PLATFORM_KEY).header("app_id", app.appId()).post("/app/admin_token")
                .then().body("code", equalTo(200));
        String row = "data.list.find { it.app_id == '" + app.appId() + "' }";
        given().header("platform-key", PLATFORM_KEY).get("/app/list")
                .then().statusCode(200).body("code", equalTo(200))
                .body(row + ".name", equalTo("test"))
                .body(row + ".admin_token_version", equalTo(2))
                .body(row + ".created_at", org.hamcrest.Matchers.greaterThanOrEqualTo(before - 5_000))
                .body(row + ".admin_token", nullValue());
    }

    @Test
    void listWithoutThePlatformKeyOrWithAnAdminTokenIsRefused() {
        AuthApi.App app = AuthApi.newApp();
        given().get("/app/list").then().statusCode(200).body("code", equalTo(10010)).body("data", nullValue());
        given().header("platform-key", "guess").get("/app/list").then().statusCode(200).body("code", equalTo(10010));
        asToken(app.appId(), app.adminToken()).get("/app/list").then().statusCode(200).body("code", equalTo(10010));
    }

    /** The services' key opens /internal/* only: a service pod holds it, and must not become an operator by it. */
    @Test
    void operatorEndpointsRefuseTheInternalKey() {
        AuthApi.App app = AuthApi.newApp();
        for (String header : List.of("internal-key", "platform-key")) {
            given().header(header, AuthApi.INTERNAL_KEY).contentType(ContentType.JSON).body("{}").post("/app/create")
                    .then().statusCode(200).body("code", equalTo(10010));
            given().header(header, AuthApi.INTERNAL_KEY).get("/app/list")
                    .then().statusCode(200).body("code", equalTo(10010));
            given().header(header, AuthApi.INTERNAL_KEY).header("app_id", app.appId()).post("/app/admin_token")
                    .then().statusCode(200).body("code", equalTo(10010));
        }
    }
}
