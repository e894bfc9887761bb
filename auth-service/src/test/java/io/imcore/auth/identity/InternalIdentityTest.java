package io.imcore.auth.identity;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.auth.AuthApi;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.IdentityClient;
import io.imcore.common.context.IdentitySnapshot;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The look-up other services' auth views fall back to (common's IdentityClient), against this real auth-service:
 * client and endpoint together.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class InternalIdentityTest {

    @Inject
    ObjectMapper mapper;

    private IdentityClient lookup(String internalKey) {
        return new IdentityClient(mapper, Optional.of("http://localhost:" + RestAssured.port + "/"),
                Optional.of(internalKey));
    }

    @Test
    void answersTheAppAndTheUsersThatExist() {
        AuthApi.App app = AuthApi.newApp();
        long user = AuthApi.register(app.appId(), AuthApi.uniqueName());
        IdentitySnapshot snapshot = lookup(AuthApi.INTERNAL_KEY).fetch(app.appId(), List.of(user, 999_999_999L));
        assertEquals(1, snapshot.adminTokenVersion());
        assertEquals(List.of(new IdentitySnapshot.User(user, 1, false)), snapshot.users());
    }

    @Test
    void unknownAppHasNoVersionAndNoUsers() {
        IdentitySnapshot snapshot = lookup(AuthApi.INTERNAL_KEY).fetch("no-such-app", List.of(10_000L));
        assertNull(snapshot.adminTokenVersion());
        assertTrue(snapshot.users().isEmpty());
    }

    @Test
    void needsTheInternalKey() {
        given().queryParam("app_id", "x").get("/internal/identity").then().statusCode(200)
                .body("code", equalTo(10010));
        ApiException refused = assertThrows(ApiException.class,
                () -> lookup("wrong-key").fetch("x", List.of()));
        assertEquals(ErrorCode.UNAVAILABLE, refused.errorCode(), "a refused look-up is not an answer: 50003");
    }

    /** The operator's key opens the operator's endpoints only: a pod holding it cannot act as a service. */
    @Test
    void refusesThePlatformKey() {
        given().header("platform-key", AuthApi.PLATFORM_KEY).queryParam("app_id", "x").get("/internal/identity")
                .then().statusCode(200).body("code", equalTo(10010))
                .body("message", equalTo("internal-key missing or wrong"));
        given().header("internal-key", AuthApi.PLATFORM_KEY).queryParam("app_id", "x").get("/internal/identity")
                .then().statusCode(200).body("code", equalTo(10010));
    }

    @Test
    void unreachableAuthServiceIs50003() {
        IdentityClient down = new IdentityClient(mapper, Optional.of("http://127.0.0.1:9"), Optional.of("k"));
        assertEquals(ErrorCode.UNAVAILABLE,
                assertThrows(ApiException.class, () -> down.fetch("x", List.of(1L))).errorCode());
    }

    @Test
    void badIdsAre10002() {
        given().header("internal-key", AuthApi.INTERNAL_KEY).queryParam("app_id", "x").queryParam("user_ids", "1,a")
                .get("/internal/identity").then().body("code", equalTo(10002));
    }
}
