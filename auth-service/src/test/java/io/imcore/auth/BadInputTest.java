package io.imcore.auth;

import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Malformed bodies on every body-taking endpoint: 10002 naming the problem, HTTP 200, JSON, nothing stored. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class BadInputTest {

    private AuthApi.App app;

    @org.junit.jupiter.api.BeforeEach
    void newApp() {
        app = AuthApi.newApp();
    }

    private RequestSpecification caller(String path) {
        return switch (path) {
            case "/user/register/batch", "/user/disable", "/user/enable" -> asToken(app.appId(), app.adminToken());
            case "/user/change_password" -> asToken(app.appId(), AuthApi.userToken(app.appId(), AuthApi.uniqueName(), "g"));
            default -> asApp(app.appId());
        };
    }

    private static String method(String path) {
        return path.equals("/user/disable") || path.equals("/user/enable") ? "PUT" : "POST";
    }

    @ParameterizedTest
    @ValueSource(strings = {"/token/id", "/token/login", "/token/user", "/user/register/v2", "/user/register/batch",
        "/user/disable", "/user/enable", "/user/change_password"})
    void malformedJsonArrayOrEmptyBodyIs10002(String path) {
        for (String body : new String[] {"{\"a\":", "[1,2]", "", "null", "\"text\"", "{} {}"}) {
            caller(path).body(body).request(method(path), path).then().statusCode(200)
                    .contentType("application/json")
                    .body("code", equalTo(10002)).body("data", nullValue()).body("message", startsWith("body"));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/token/id | {\"user_id\":\"12\",\"password\":\"x\"} | user_id",
        "/token/id | {\"user_id\":1.5,\"password\":\"x\"} | user_id",
        "/token/id | {\"user_id\":99999999999999999999999,\"password\":\"x\"} | user_id",
        "/token/id | {\"user_id\":-3,\"password\":\"x\"} | user_id",
        "/token/id | {\"password\":\"x\"} | user_id",
        "/token/id | {\"user_id\":12} | password",
        "/token/login | {\"login_name\":7,\"password\":\"x\"} | login_name",
        "/token/login | {\"login_name\":{},\"password\":\"x\"} | login_name",
        "/token/user | {\"name\":\"abc\",\"password\":[1]} | password",
        "/token/user | {\"name\":\"abc\",\"password\":\"x\",\"device_guid\":\"has space\"} | device_guid",
        "/user/register/v2 | {\"username\":true,\"password\":\"secret-pass\"} | username",
        "/user/register/batch | {\"list\":{\"username\":\"abc\"}} | list",
        "/user/register/batch | {\"list\":[null]} | list",
        "/user/disable | {\"list\":[\"a\"]} | list",
        "/user/disable | {} | list",
        "/user/change_password | {\"old_password\":\"secret-pass-1\"} | new_password",
    })
    void wrongTypesAndMissingFieldsAre10002NamingTheField(String path, String body, String field) {
        caller(path).body(body).request(method(path), path).then().statusCode(200)
                .body("code", equalTo(10002)).body("message", startsWith(field));
    }

    @ParameterizedTest
    @CsvSource({"/token/user, name", "/token/login, login_name", "/token/id, password"})
    void oversizeStringsAre10002(String path, String field) {
        String huge = "x".repeat(100_000);
        String body = switch (field) {
            case "name" -> "{\"name\":\"" + huge + "\",\"password\":\"x\"}";
            case "login_name" -> "{\"login_name\":\"" + huge + "\",\"password\":\"x\"}";
            default -> "{\"user_id\":1,\"password\":\"" + huge + "\"}";
        };
        caller(path).body(body).post(path).then().statusCode(200).body("code", equalTo(10002))
                .body("message", startsWith(field));
    }

    @Test
    void aBodyOverTheLimitIsTheEnvelopeToo() {
        String huge = "{\"username\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        asApp(app.appId()).body(huge).post("/user/register/v2").then().statusCode(200)
                .contentType("application/json").body("code", equalTo(10002)).body("message", startsWith("body"));
    }

    @Test
    void unknownFieldsAreIgnored() {
        asApp(app.appId()).body("{\"username\":\"" + AuthApi.uniqueName() + "\",\"password\":\"secret-pass-1\",\"extra\":[1,{}]}")
                .post("/user/register/v2").then().body("code", equalTo(200));
    }

    @Test
    void unknownPathsAndMethodsAreTheEnvelope() {
        given().get("/token/user").then().statusCode(200).body("code", equalTo(10002));
        given().delete("/user/register/v2").then().statusCode(200).body("code", equalTo(10002));
    }
}
