package io.imcore.message;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.store.Database;
import io.imcore.common.throttle.AppQuotas;
import io.imcore.testing.InfrastructureResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * /message/send is served on the event loop when nothing has to block (PlainRoutes, NonBlockingAttempt), and
 * again on a worker when something would: with the callers' and targets' states cached, as in production (the
 * other tests turn the cache off), and a user in use is read again before its state expires.
 */
@QuarkusTest
@TestProfile(SendOnEventLoopTest.CachedStates.class)
@QuarkusTestResource(InfrastructureResource.class)
class SendOnEventLoopTest {

    private static final long CACHE_TTL_MS = 2_000;

    public static class CachedStates implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.auth-view.cache-ttl", CACHE_TTL_MS + "ms");
        }
    }

    @Inject
    Database database;

    @Inject
    AppQuotas quotas;

    @Inject
    MeterRegistry registry;

    @Inject
    IdentityDirectory directory;

    @Test
    void aSendWhoseCallerAndTargetAreCachedAndWhoseQuotaIsLeasedIsServedOnTheEventLoop() {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        long bob = api.newUser();
        api.sendText(alice, bob, "warm up");
        double before = servedOn("event_loop");
        int sends = 1;
        // a lease lives 50 ms: the takes that lease and the send must fall within it, so try a few times
        for (int i = 0; i < 20 && servedOn("event_loop") == before; i++) {
            takeQuickly(api, 5);
            api.sendText(alice, bob, "from the event loop");
            sends++;
        }
        assertEquals(before + 1, servedOn("event_loop"), "one send served without a worker");
        assertEquals(sends, MessageChecks.messagesOfApp(database, api), "each send stored once");
    }

    @Test
    void aSendThatWouldBlockAfterTakingALeasedCallTakesFromTheQuotaOnce() {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        api.sendText(alice, alice, "warm up");
        for (int i = 0; i < 10; i++) {
            long stranger = api.newUser(); // not cached: the check of the target has to query
            takeQuickly(api, 5);
            long takesBefore = registry.get("imcore.throttle.take").timer().count();
            double workerBefore = servedOn("worker");
            api.send(alice, MessageApi.text("to a stranger", List.of(stranger))).body("code", equalTo(200));
            assertEquals(takesBefore + 1, registry.get("imcore.throttle.take").timer().count(), "send " + i);
            assertEquals(workerBefore + 1, servedOn("worker"), "send " + i);
        }
        assertEquals(11, MessageChecks.messagesOfApp(database, api));
    }

    @Test
    void aUserReadInTheLastQuarterOfItsTimeIsReadAgainAheadSoItStaysInMemory() throws Exception {
        MessageApi api = MessageApi.newApp(database);
        long alice = api.newUser();
        long loaded = System.nanoTime();
        assertFalse(directory.user(api.appId, alice).orElseThrow().disabled());
        disableInTheView(api.appId, alice);
        sleepUntil(loaded, CACHE_TTL_MS * 4 / 5);
        assertFalse(directory.user(api.appId, alice).orElseThrow().disabled(), "the cached state, within its time");
        sleepUntil(loaded, CACHE_TTL_MS * 6 / 5);
        // past the first state's time: found in memory (a query would be refused here) and read again
        IdentityDirectory.UserState refreshed = NonBlockingAttempt.run(() -> directory.user(api.appId, alice))
                .orElseThrow();
        assertTrue(refreshed.disabled(), "the state read ahead is the current one");
    }

    private void disableInTheView(String appId, long userId) {
        assertEquals(Integer.valueOf(1), database.<Integer>autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "update auth_view_users set disabled = true where app_id = ? and user_id = ?")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                return ps.executeUpdate();
            }
        }));
    }

    private static void sleepUntil(long startNanos, long afterMillis) throws InterruptedException {
        long left = afterMillis - (System.nanoTime() - startNanos) / 1_000_000;
        assertTrue(left > 0, "the test fell behind its schedule");
        Thread.sleep(left);
    }

    /** Takes from the app's send quota in a quick row, which leases calls for the next ones (RateLimiter). */
    private void takeQuickly(MessageApi api, int calls) {
        for (int i = 0; i < calls; i++) {
            quotas.consume("message-send", "/message/send", api.appId);
        }
    }

    private double servedOn(String thread) {
        return registry.get("imcore.http.plain.calls").tag("route", "/message/send").tag("thread", thread).counter()
                .count();
    }
}
