package io.imcore.message.live;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.message.AppWithUsers;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.LiveClient;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

/**
 * A live connection dies with its credentials (docs/live-protocol.md "When credentials die"): a password change or an
 * admin's revocation (auth-service publishes the user's new token version on auth.events), a disable, and the
 * token's own expiry close the user's sockets with 4403; one socket holds one session whatever frames it sends.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class LiveRevocationTest extends AppWithUsers {

    private static final Logger LOG = Logger.getLogger(LiveRevocationTest.class);
    private static final Duration WAIT = Duration.ofSeconds(10);

    private String token(long user, int tokenVersion, int deviceSn, long lifetimeSeconds) {
        JwtClaims claims = TestTokens.userClaims(api.appId, user, tokenVersion);
        claims.setClaim("dsn", deviceSn);
        NumericDate expiry = NumericDate.now();
        expiry.addSeconds(lifetimeSeconds);
        claims.setExpirationTime(expiry);
        return TestTokens.signRs256(claims, SharedInfrastructure.get().jwtKeys());
    }

    private LiveClient device(long user, int tokenVersion, int deviceSn) {
        return LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                token(user, tokenVersion, deviceSn, 3600), null);
    }

    /** What auth-service publishes after a password change, a revocation or a disable: the user's new state. */
    private void userChanged(long user, int tokenVersion, boolean disabled) {
        TopicWriter.send("auth.events", api.appId + ":" + user, "{\"v\":1,\"type\":\"user.changed\",\"app_id\":\""
                + api.appId + "\",\"user_id\":" + user + ",\"token_version\":" + tokenVersion + ",\"disabled\":"
                + disabled + ",\"at\":" + System.currentTimeMillis() + "}");
    }

    @Test
    void aPasswordChangeClosesEveryOldSocketOfTheUserAndNoOtherOne() throws Exception {
        try (LiveClient bobPhone = device(bob, 1, 1); LiveClient bobTablet = device(bob, 1, 2);
                LiveClient alicePhone = device(alice, 1, 1)) {
            long changed = System.nanoTime();
            userChanged(bob, 2, false);
            assertEquals(4403, bobPhone.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(4403, bobTablet.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            LOG.infof("bob's sockets closed %d ms after the event was published",
                    (System.nanoTime() - changed) / 1_000_000);

            try (LiveClient bobNewPhone = device(bob, 2, 1)) {
                api.sendText(carol, bob, "after the change");
                api.sendText(carol, alice, "alice is untouched");
                JsonNode toBob = bobNewPhone.next("message", WAIT);
                assertNotNull(toBob, "a token of the new version connects and receives");
                assertEquals("after the change", toBob.path("message").path("content").asText());
                assertNotNull(alicePhone.next("message", WAIT), "another user's socket stays open");
                assertEquals(false, bobNewPhone.closed.isDone(), "the new version's socket stays open");
            }
        }
    }

    @Test
    void aDisableClosesTheUsersSockets() throws Exception {
        try (LiveClient bobPhone = device(bob, 1, 1)) {
            userChanged(bob, 1, true);
            assertEquals(4403, bobPhone.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
        try (LiveClient again = LiveClient.connect("localhost", RestAssured.port)) {
            assertEquals(10014, again.auth(api.appId, token(bob, 1, 1, 3600), null).path("code").asInt());
        }
    }

    @Test
    void aSocketClosesWhenItsTokenExpires() throws Exception {
        try (LiveClient bobPhone = LiveClient.authenticated("localhost", RestAssured.port, api.appId,
                token(bob, 1, 1, 2), null)) {
            assertEquals(4403, bobPhone.closed.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void onlyTheFirstAuthFrameCountsAndClosingLeavesNoPresence() throws Exception {
        String token = TestTokens.signRs256(TestTokens.userClaims(api.appId, bob, 1), SharedInfrastructure.get().jwtKeys());
        try (LiveClient client = LiveClient.connect("localhost", RestAssured.port)) {
            // sent back to back: the second arrives while the first is still being checked
            for (int deviceSn = 1; deviceSn <= 3; deviceSn++) {
                client.send("{\"type\":\"auth\",\"app_id\":\"" + api.appId + "\",\"token\":\"" + token
                        + "\",\"device_sn\":" + deviceSn + "}");
            }
            List<Integer> codes = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                codes.add(client.next("auth", WAIT).path("code").asInt());
            }
            codes.sort(null);
            assertEquals(List.of(200, 10002, 10002), codes);
            api.as(bob).get("/user/online_status").then().body("data.devices.device_sn.size()", equalTo(1));
        }
        long deadline = System.currentTimeMillis() + WAIT.toMillis();
        boolean online = true;
        while (online && System.currentTimeMillis() < deadline) {
            online = api.as(bob).get("/user/online_status").then().extract().path("data.online");
            if (online) {
                Thread.sleep(100);
            }
        }
        assertEquals(false, online, "no session of the socket outlives it");
    }
}
