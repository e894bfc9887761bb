package io.imcore.auth;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.security.TokenKeySet;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.security.KeyPair;
import java.util.Map;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every way a token can be wrong is refused with the envelope, never accepted and never a stack trace. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class BadTokenTest {

    private AuthApi.App app;
    private long userId;
    private String token;

    @BeforeEach
    void user() {
        app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        userId = AuthApi.register(app.appId(), name);
        token = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
        asToken(app.appId(), token).get("/user/device/list").then().body("code", equalTo(200));
    }

    private void refused(String candidate, int code) {
        asToken(app.appId(), candidate).get("/user/device/list")
                .then().statusCode(200).body("code", equalTo(code)).body("data", nullValue());
    }

    private void refusedSaying(String candidate, String message) {
        asToken(app.appId(), candidate).get("/user/device/list")
                .then().statusCode(200).body("code", equalTo(10008)).body("message", equalTo(message));
    }

    @Test
    void missingTokenIs10003() {
        asApp(app.appId()).get("/user/device/list").then().body("code", equalTo(10003));
        refused("", 10003);
    }

    @Test
    void garbageIs10008() {
        refused("not-a-jwt", 10008);
        refused("a.b.c", 10008);
    }

    @Test
    void aTamperedPayloadIs10008() {
        refused(TestTokens.withPayload(token, Map.of("iss", "imcore-auth", "sub", Long.toString(userId + 1),
                "app", app.appId(), "role", "admin", "tv", 1, "exp", NumericDate.now().getValue() + 3600)), 10008);
    }

    @Test
    void aTokenSignedByAnotherKeyIs10008() {
        JwtClaims claims = TestTokens.userClaims(app.appId(), userId, 1);
        KeyPair stranger = SharedInfrastructure.newRsaKeyPair();
        refusedSaying(TestTokens.signRs256(claims, stranger), "access-token signed with an unknown or retired key");
        // another key under the kid of ours: the signature does not hold
        refusedSaying(TestTokens.signRs256(claims, stranger.getPrivate(),
                TokenKeySet.thumbprint(SharedInfrastructure.get().jwtKeys().getPublic())), "access-token invalid");
    }

    @Test
    void hmacSignedWithThePublicKeyIs10008() {
        refused(TestTokens.hmacWithPublicKey(TestTokens.userClaims(app.appId(), userId, 1),
                SharedInfrastructure.get().jwtKeys()), 10008);
    }

    @Test
    void aBearerTokenInTheAuthorizationHeaderChangesNothing() {
        // smallrye-jwt's own HTTP mechanism is off: it would answer a bad Authorization header with a bare 401
        asToken(app.appId(), token).header("Authorization", "Bearer not-a-jwt").get("/user/device/list")
                .then().statusCode(200).body("code", equalTo(200));
        asApp(app.appId()).header("Authorization", "Bearer not-a-jwt").get("/user/device/list")
                .then().statusCode(200).body("code", equalTo(10003));
    }

    @Test
    void endpointsThatNeedNoTokenIgnoreABadOne() {
        assertEquals(200, post(asApp(app.appId()).header("access-token", "not-a-jwt"), "/user/register/v2",
                Map.of("username", AuthApi.uniqueName(), "password", PASSWORD)).getInt("code"));
    }

    @Test
    void algNoneIs10008() {
        refused(TestTokens.unsigned(TestTokens.userClaims(app.appId(), userId, 1)), 10008);
    }

    @Test
    void anExpiredTokenIs10008() {
        JwtClaims claims = TestTokens.userClaims(app.appId(), userId, 1);
        claims.setExpirationTime(NumericDate.fromSeconds(NumericDate.now().getValue() - 3600));
        refusedSaying(TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys()), "access-token expired");
    }

    @Test
    void aWellSignedTokenOfTheRightShapePasses() {
        // the control for the cases above: the same construction with the real key and live claims is accepted
        JwtClaims claims = TestTokens.userClaims(app.appId(), userId, 1);
        asToken(app.appId(), TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys()))
                .get("/user/device/list").then().body("code", equalTo(200));
    }

    @Test
    void aTokenOfAnotherAppIs10008() {
        AuthApi.App other = AuthApi.newApp();
        asToken(other.appId(), token).get("/user/device/list").then().body("code", equalTo(10008));
        asToken(other.appId(), app.adminToken()).get("/user/device/list").then().body("code", equalTo(10008));
    }

    @Test
    void aUserTokenWithAdminHeadersIs10010() {
        asToken(app.appId(), token).header("user_id", userId).get("/user/device/list").then().body("code", equalTo(10010));
        asToken(app.appId(), token).header("group_id", 5).get("/user/device/list").then().body("code", equalTo(10010));
    }

    @Test
    void aTokenWithAnUnknownAppHeaderIs40000() {
        asToken("nosuchapp", token).get("/user/device/list").then().body("code", equalTo(40000));
        io.restassured.RestAssured.given().header("access-token", token).get("/user/device/list")
                .then().body("code", equalTo(40000));
    }
}
