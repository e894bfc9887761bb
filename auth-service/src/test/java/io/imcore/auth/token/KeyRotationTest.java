package io.imcore.auth.token;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.PLATFORM_KEY;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.auth.AuthApi;
import io.imcore.common.security.TokenKeySet;
import io.imcore.common.security.TokenVerifier;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.imcore.testing.TokenKeyFiles;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The key rotation of docs/operations.md, step by step, on the key files of this test JVM's auth-service: a new key
 * joins the set, signing switches to it, tokens of the old key keep working until it is retired, then get the
 * documented error. Reloads are triggered directly instead of waiting for im.jwt.key-reload-interval; the shared
 * test key is put back after each test.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class KeyRotationTest {

    private static final Path KEY_SET = SharedInfrastructure.get().jwtKeySetFile();
    private static final Path SIGNING_KEY = SharedInfrastructure.get().jwtPrivateKeyFile();

    @Inject
    TokenVerifier verifier;

    @Inject
    TokenIssuer issuer;

    private KeyPair current;
    private AuthApi.App app;
    private String name;
    private long userId;

    /** Every test starts from a one-key set whose key signs, and an app with a user. */
    @BeforeEach
    void oneKeyAndAUser() {
        current = SharedInfrastructure.newRsaKeyPair();
        publishSet(current);
        signWith(current);
        app = AuthApi.newApp();
        name = AuthApi.uniqueName();
        userId = AuthApi.register(app.appId(), name);
    }

    @AfterEach
    void sharedKeyAgain() {
        publishSet(SharedInfrastructure.get().jwtKeys());
        signWith(SharedInfrastructure.get().jwtKeys());
    }

    private void publishSet(KeyPair... keys) {
        TokenKeyFiles.writeKeySet(KEY_SET, keys);
        verifier.reload();
    }

    private void signWith(KeyPair keys) {
        TokenKeyFiles.writePrivateKey(SIGNING_KEY, keys.getPrivate());
        issuer.reload();
    }

    private static String kid(KeyPair keys) {
        return TokenKeySet.thumbprint(keys.getPublic());
    }

    private static String kidOf(String token) {
        return JsonPath.from(new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8))
                .getString("kid");
    }

    private static int deviceList(String appId, String token) {
        return asToken(appId, token).get("/user/device/list").then().statusCode(200).extract().jsonPath().getInt("code");
    }

    /** The admin token acting as the user (an admin token alone names no user for the device list). */
    private static int deviceListAsAdmin(String appId, String adminToken, long userId) {
        return asToken(appId, adminToken).header("user_id", userId).get("/user/device/list").then().statusCode(200)
                .extract().jsonPath().getInt("code");
    }

    private static String login(String appId, String name) {
        return post(asApp(appId), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
    }

    @Test
    void aRotationLogsNobodyOutAndTheRetiredKeysTokensThenSaySo() {
        String before = login(app.appId(), name);
        assertEquals(kid(current), kidOf(before));
        assertEquals(kid(current), kidOf(app.adminToken()));

        // 1. the next key joins the set; every service reloads it; signing has not changed yet
        KeyPair next = SharedInfrastructure.newRsaKeyPair();
        publishSet(current, next);
        given().get("/internal/jwks").then().body("keys.kid", containsInAnyOrder(kid(current), kid(next)));
        assertEquals(kid(current), kidOf(login(app.appId(), name)));
        assertEquals(200, deviceList(app.appId(), before));

        // 2. auth-service signs with the next key; the tokens of the previous one keep working
        signWith(next);
        String after = login(app.appId(), name);
        assertEquals(kid(next), kidOf(after));
        assertEquals(200, deviceList(app.appId(), after));
        assertEquals(200, deviceList(app.appId(), before));
        assertEquals(200, deviceListAsAdmin(app.appId(), app.adminToken(), userId));

        // 3. once the overlap is over, the previous key leaves the set: its tokens get the documented error
        publishSet(next);
        asToken(app.appId(), before).get("/user/device/list").then()
                .body("code", equalTo(10008))
                .body("message", equalTo("access-token signed with an unknown or retired key"));
        assertEquals(10008, deviceListAsAdmin(app.appId(), app.adminToken(), userId));
        assertEquals(200, deviceList(app.appId(), after));
        String newAdminToken = given().header("platform-key", PLATFORM_KEY).header("app_id", app.appId())
                .post("/app/admin_token").then().statusCode(200).extract().path("data.admin_token");
        assertEquals(kid(next), kidOf(newAdminToken));
        assertEquals(200, deviceListAsAdmin(app.appId(), newAdminToken, userId));

        // a key that was never in the set stays refused throughout
        String stranger = TestTokens.signRs256(TestTokens.userClaims(app.appId(), userId, 1),
                SharedInfrastructure.newRsaKeyPair());
        asToken(app.appId(), stranger).get("/user/device/list").then()
                .body("message", equalTo("access-token signed with an unknown or retired key"));
    }

    @Test
    void aSigningKeyIsTakenOnlyOnceTheSetHoldsIt() {
        KeyPair early = SharedInfrastructure.newRsaKeyPair();
        signWith(early);
        String token = login(app.appId(), name);
        assertEquals(kid(current), kidOf(token));
        assertEquals(200, deviceList(app.appId(), token));

        // the steps done the other way round: the set catches up, and the waiting key file is taken then
        publishSet(current, early);
        issuer.reload();
        assertEquals(kid(early), kidOf(login(app.appId(), name)));
    }

    @Test
    void aKeySetWithoutTheSigningKeyStopsIssuingInsteadOfIssuingDeadTokens() {
        publishSet(SharedInfrastructure.newRsaKeyPair());

        JsonPath refused = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD));
        assertEquals(50000, refused.getInt("code"));
    }
}
