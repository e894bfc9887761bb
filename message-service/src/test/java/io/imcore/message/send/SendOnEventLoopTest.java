package io.imcore.message.send;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.message.MessageApi;
import io.imcore.message.MessageChecks;
import io.imcore.testing.InfrastructureResource;
import io.imcore.throttle.AppQuotas;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * /message/send is served on the event loop when nothing has to block (PlainRoutes, NonBlockingAttempt), and
 * again on a worker when something would: with the callers' and targets' states cached, as in production (the
 * other tests turn the cache off).
 */
@QuarkusTest
@TestProfile(SendOnEventLoopTest.CachedStates.class)
@QuarkusTestResource(InfrastructureResource.class)
class SendOnEventLoopTest {

    public static class CachedStates implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.auth-view.cache-ttl", "5S");
        }
    }

    @Inject
    Database database;

    @Inject
    AppQuotas quotas;

    @Inject
    MeterRegistry registry;

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
    void aMembersSendToOneGroupIsServedOnTheEventLoop() {
        MessageApi api = MessageApi.newApp(database);
        long owner = api.newUser();
        long member = api.newUser();
        long group = api.createGroup(owner, List.of(member));
        api.send(member, MessageApi.toGroup("warm up", group)).body("code", equalTo(200));
        double before = servedOn("event_loop");
        int sends = 1;
        for (int i = 0; i < 20 && servedOn("event_loop") == before; i++) {
            takeQuickly(api, 5);
            api.send(member, MessageApi.toGroup("from the event loop", group)).body("code", equalTo(200));
            sends++;
        }
        assertEquals(before + 1, servedOn("event_loop"), "one group send served without a worker");
        assertEquals(sends, MessageChecks.messagesOfGroup(database, api, group), "each send stored once");
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
