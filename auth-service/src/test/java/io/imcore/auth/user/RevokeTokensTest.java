package io.imcore.auth.user;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.asToken;
import static io.imcore.auth.AuthApi.post;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.auth.AuthApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An app's admin revokes users' tokens ({@code POST /user/revoke_tokens}): every token issued before stops working,
 * new sign-ins work, and the new token version reaches the other services (whose live connections then close).
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class RevokeTokensTest {

    private static String token(String appId, String name) {
        return post(asApp(appId), "/token/user", Map.of("name", name, "password", PASSWORD)).getString("data.token");
    }

    @Test
    void revokedTokensStopWorkingAndTheNewVersionIsPublished() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String other = AuthApi.uniqueName();
        AuthApi.register(app.appId(), other);
        String before = token(app.appId(), name);
        String othersToken = token(app.appId(), other);

        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId))).post("/user/revoke_tokens")
                .then().body("code", equalTo(200)).body("data", equalTo(true));

        asToken(app.appId(), before).get("/user/device/list").then().body("code", equalTo(10008));
        asToken(app.appId(), token(app.appId(), name)).get("/user/device/list").then().body("code", equalTo(200));
        asToken(app.appId(), othersToken).get("/user/device/list").then().body("code", equalTo(200));

        String key = app.appId() + ":" + userId;
        var changed = TopicReader.await("auth.events", r -> key.equals(r.key()) && r.value().contains("user.changed"),
                1, Duration.ofSeconds(20));
        assertEquals(1, changed.size(), "the revocation is published for the other services");
        assertEquals(true, changed.get(0).value().contains("\"token_version\":2"), changed.get(0).value());
    }

    @Test
    void anUnknownUserChangesNothingAndUsersCannotRevoke() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String before = token(app.appId(), name);

        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of(userId, 999_999_999L)))
                .post("/user/revoke_tokens").then().body("code", equalTo(10000));
        asToken(app.appId(), before).get("/user/device/list").then().body("code", equalTo(200));

        asToken(app.appId(), before).body(Map.of("list", List.of(userId))).post("/user/revoke_tokens")
                .then().body("code", equalTo(10010));
        asToken(app.appId(), app.adminToken()).body(Map.of("list", List.of())).post("/user/revoke_tokens")
                .then().body("code", equalTo(10002));
    }
}
