package io.imcore.testing;

import static io.restassured.RestAssured.given;

import io.imcore.common.context.AuthViewStore;
import io.imcore.common.store.Database;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.jose4j.jwt.JwtClaims;

/**
 * An app of its own per test (isolation on the shared database) for the services that keep the auth view: users
 * are written into the view exactly as AuthViewFeed writes them from auth-service's events, and tokens are
 * signed with the test key.
 */
public class TestApp {

    private static final AtomicLong NEXT_USER = new AtomicLong(
            10_000 + ThreadLocalRandom.current().nextLong(1_000_000_000L));

    public final String appId;
    protected final Database database;

    protected TestApp(Database database, String appId) {
        this.database = database;
        this.appId = appId;
    }

    public static TestApp create(Database database) {
        return new TestApp(database, registerApp(database));
    }

    /** Writes a new app into the auth view and returns its id. */
    protected static String registerApp(Database database) {
        String appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        database.inTransaction(c -> {
            AuthViewStore.upsertApp(c, appId, 1);
            return null;
        });
        return appId;
    }

    public long newUser() {
        long id = NEXT_USER.incrementAndGet();
        database.inTransaction(c -> {
            AuthViewStore.upsertUser(c, appId, id, 1, false);
            return null;
        });
        return id;
    }

    public void disable(long userId) {
        database.inTransaction(c -> {
            AuthViewStore.upsertUser(c, appId, userId, 1, true);
            return null;
        });
    }

    public String userToken(long userId) {
        return sign(TestTokens.userClaims(appId, userId, 1));
    }

    public String userToken(long userId, int deviceSn) {
        JwtClaims claims = TestTokens.userClaims(appId, userId, 1);
        claims.setClaim("dsn", deviceSn);
        return sign(claims);
    }

    public String adminToken() {
        return sign(TestTokens.adminClaims(appId));
    }

    private static String sign(JwtClaims claims) {
        return TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys());
    }

    public RequestSpecification as(long userId) {
        return given().header("app_id", appId).header("access-token", userToken(userId)).contentType(ContentType.JSON);
    }

    /** As the user's device (a token issued with a device_guid). */
    public RequestSpecification as(long userId, int deviceSn) {
        return given().header("app_id", appId).header("access-token", userToken(userId, deviceSn))
                .contentType(ContentType.JSON);
    }

    public RequestSpecification asAdmin() {
        return given().header("app_id", appId).header("access-token", adminToken()).contentType(ContentType.JSON);
    }
}
