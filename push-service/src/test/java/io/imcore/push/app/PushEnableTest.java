package io.imcore.push.app;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.store.Database;
import io.imcore.push.PushApi;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TestApp;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** GET and POST /push/enable and PushAppStore.isEnabled: push is off until an admin switches it on. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PushEnableTest {

    @Inject
    Database database;

    @Inject
    PushAppStore apps;

    private ValidatableResponse enable(TestApp app, String query) {
        return app.asAdmin().post("/push/enable" + query).then().statusCode(200);
    }

    /** push_apps.push_enabled of the app, empty when it has no row. */
    private Optional<Boolean> row(String appId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select push_enabled from push_apps where app_id = ?")) {
                ps.setString(1, appId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getBoolean(1)) : Optional.empty();
                }
            }
        });
    }

    @Test
    void anAppWithoutARowHasPushOff() {
        TestApp app = TestApp.create(database);
        assertEquals(Optional.empty(), row(app.appId));
        assertFalse(apps.isEnabled(app.appId));
        assertFalse(apps.isEnabled("no-such-app"));
    }

    @Test
    void switchingOffAndOnIsVisibleInTheTableAndIsEnabled() {
        TestApp app = TestApp.create(database);
        enable(app, "?value=true").body("code", equalTo(200)).body("data", equalTo(true)).body("message", nullValue());
        assertEquals(Optional.of(true), row(app.appId));
        assertTrue(apps.isEnabled(app.appId));

        enable(app, "?value=false").body("code", equalTo(200)).body("data", equalTo(true));
        assertEquals(Optional.of(false), row(app.appId));
        assertFalse(apps.isEnabled(app.appId));

        enable(app, "?value=FALSE").body("code", equalTo(200));
        assertFalse(apps.isEnabled(app.appId));
        enable(app, "?value=True").body("code", equalTo(200));
        assertTrue(apps.isEnabled(app.appId));
    }

    @Test
    void onlyTheCallersAppIsSwitched() {
        PushApi first = PushApi.newApp(database);
        PushApi second = PushApi.newApp(database);
        enable(first, "?value=false").body("code", equalTo(200));
        assertFalse(apps.isEnabled(first.appId));
        assertTrue(apps.isEnabled(second.appId));
    }

    @Test
    void aMissingOrNonBooleanValueIs10002() {
        PushApi app = PushApi.newApp(database);
        for (String query : new String[] {"", "?value=", "?value=yes", "?value=1", "?value=0", "?value=on",
            "?other=true"}) {
            enable(app, query).body("code", equalTo(10002)).body("data", nullValue())
                    .body("message", startsWith("value:"));
        }
        assertTrue(apps.isEnabled(app.appId), "unchanged");
    }

    @Test
    void aUserTokenGets10010() {
        PushApi app = PushApi.newApp(database);
        long user = app.newUser();
        app.as(user).post("/push/enable?value=false").then().statusCode(200)
                .body("code", equalTo(10010)).body("data", nullValue());
        assertTrue(apps.isEnabled(app.appId), "unchanged");
    }

    @Test
    void getAnswersTheSwitchAsItStands() {
        TestApp app = TestApp.create(database);
        app.asAdmin().get("/push/enable").then().statusCode(200)
                .body("code", equalTo(200)).body("data.enabled", equalTo(false));
        enable(app, "?value=true").body("code", equalTo(200));
        app.asAdmin().get("/push/enable").then().body("code", equalTo(200)).body("data.enabled", equalTo(true));
        enable(app, "?value=false").body("code", equalTo(200));
        app.asAdmin().get("/push/enable").then().body("code", equalTo(200)).body("data.enabled", equalTo(false));
    }

    @Test
    void getWithAUserTokenGets10010() {
        PushApi app = PushApi.newApp(database);
        app.as(app.newUser()).get("/push/enable").then().statusCode(200)
                .body("code", equalTo(10010)).body("data", nullValue());
    }

    /** The entity's first insert races: every one of several first switches of one app at once must succeed. */
    @Test
    void concurrentFirstSwitchesOfOneAppAllSucceed() throws Exception {
        for (int round = 0; round < 5; round++) {
            String appId = "enable-race-" + System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> calls = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    calls.add(pool.submit(() -> {
                        start.await();
                        apps.setEnabled(appId, true);
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> call : calls) {
                    call.get(30, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(Optional.of(true), row(appId));
        }
    }
}
