package io.imcore.auth;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Small request helpers shared by the auth-service tests; every call asserts HTTP 200 (the envelope rule). */
public final class AuthApi {

    public static final String PLATFORM_KEY = "test-platform-key";
    /** The services' key for each other's /internal/* endpoints (im.internal-key in the test profile). */
    public static final String INTERNAL_KEY = "test-internal-key";
    public static final String PASSWORD = "secret-pass-1";
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private AuthApi() {}

    public record App(String appId, String adminToken) {}

    public static App newApp() {
        JsonPath json = given().header("platform-key", PLATFORM_KEY).contentType(ContentType.JSON)
                .body(Map.of("name", "test")).post("/app/create")
                .then().statusCode(200).extract().jsonPath();
        return new App(json.getString("data.app_id"), json.getString("data.admin_token"));
    }

    public static String uniqueName() {
        return "u" + UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "_" + COUNTER.incrementAndGet();
    }

    public static RequestSpecification asApp(String appId) {
        return given().header("app_id", appId).contentType(ContentType.JSON);
    }

    public static RequestSpecification asToken(String appId, String token) {
        return asApp(appId).header("access-token", token);
    }

    public static JsonPath post(RequestSpecification spec, String path, Object body) {
        return spec.body(body).post(path).then().statusCode(200).extract().jsonPath();
    }

    public static long register(String appId, String username) {
        JsonPath json = post(asApp(appId), "/user/register/v2", Map.of("username", username, "password", PASSWORD));
        if (json.getInt("code") != 200) {
            throw new AssertionError("registration failed: " + json.prettify());
        }
        return json.getLong("data.user_id");
    }

    /** Registers a user and returns a token issued for a device. */
    public static String userToken(String appId, String username, String deviceGuid) {
        register(appId, username);
        return post(asApp(appId), "/token/user", Map.of("name", username, "password", PASSWORD, "device_guid", deviceGuid))
                .getString("data.token");
    }
}
