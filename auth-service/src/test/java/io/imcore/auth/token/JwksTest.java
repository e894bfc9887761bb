package io.imcore.auth.token;

import static io.imcore.auth.AuthApi.PASSWORD;
import static io.imcore.auth.AuthApi.asApp;
import static io.imcore.auth.AuthApi.post;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.auth.AuthApi;
import io.imcore.common.security.TokenKeySet;
import io.imcore.common.security.TokenVerifier;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.SharedInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import java.net.URL;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** auth-service publishes the key set in force at GET /internal/jwks, in the form smallrye-jwt reads from a URL. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class JwksTest {

    @TestHTTPResource("/internal/jwks")
    URL jwks;

    @Test
    void theKeySetIsPublishedWithPublicMembersOnly() {
        String kid = TokenKeySet.thumbprint(SharedInfrastructure.get().jwtKeys().getPublic());
        given().get("/internal/jwks").then().statusCode(200)
                .contentType(startsWith("application/jwk-set+json"))
                .body("keys.kid", contains(kid))
                .body("keys[0].kty", equalTo("RSA"))
                .body("keys[0].d", nullValue())
                .body("keys[0].p", nullValue());
    }

    @Test
    void aVerifierReadingTheSetFromTheUrlAcceptsIssuedTokens() {
        AuthApi.App app = AuthApi.newApp();
        String name = AuthApi.uniqueName();
        long userId = AuthApi.register(app.appId(), name);
        String token = post(asApp(app.appId()), "/token/user", Map.of("name", name, "password", PASSWORD))
                .getString("data.token");

        JWTAuthContextInfo fromUrl = new JWTAuthContextInfo(jwks.toString(), "imcore-auth");
        assertEquals(Long.toString(userId), parse(fromUrl, token));
        assertEquals(userId, new TokenVerifier(fromUrl, Optional.of(jwks.toString())).verify(token).userId());
    }

    private static String parse(JWTAuthContextInfo settings, String token) {
        try {
            return new DefaultJWTParser(settings).parse(token).getSubject();
        } catch (Exception e) {
            throw new AssertionError("smallrye-jwt refused a token issued by auth-service", e);
        }
    }
}
