package io.imcore.message.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.store.Database;
import io.imcore.message.webhook.DeliveryStore.ClaimedDelivery;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.PlanReads;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher claims conversations' heads, not pending rows: with 20,000 conversations whose head is in flight
 * (each with a second event waiting behind it), a claim reads the few due heads and their rows, whatever the
 * backlog; and a head moves to its conversation's next event only when the event before it is delivered. Each test
 * works in a transaction it rolls back, so the running dispatcher never sees its rows.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class WebhookHeadsTest {

    private static final int IN_FLIGHT = 20_000;
    private static final Duration LEASE = Duration.ofSeconds(15);

    @Inject
    Database database;

    @Inject
    DeliveryStore deliveries;

    @Inject
    WebhookSecrets secrets;

    @Test
    void aClaimReadsTheDueHeadsNotTheBacklog() {
        String app = newApp();
        JsonNode plan = database.inTransaction(c -> {
            endpoint(c, app);
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
                // two events per conversation, the first one claimed by another dispatcher (due when its lease ends)
                s.execute("insert into webhook_deliveries (app_id, event_id, event_type, ordering_key, body)"
                        + " select '" + app + "', 'evt_' || g || '_' || n, 'message.created', 'c' || g, '{}'"
                        + " from generate_series(1, " + IN_FLIGHT + ") g, generate_series(1, 2) n order by g, n");
                s.execute("insert into webhook_heads (app_id, ordering_key, head_id, next_attempt_at)"
                        + " select app_id, ordering_key, min(id), now() + interval '10 seconds'"
                        + " from webhook_deliveries where app_id = '" + app + "' group by app_id, ordering_key");
                s.execute("analyze webhook_deliveries, webhook_heads");
            }
            // five conversations with a head due now
            for (int i = 1; i <= 5; i++) {
                deliveries.queue(c, List.of(new DeliveryStore.Queued(app, "evt_due_" + i, "message.created",
                        "due" + i, "{}")));
            }
            JsonNode explained = PlanReads.analyzeGeneric(c, DeliveryStore.CLAIM, ps -> {
                ps.setInt(1, 100);
                ps.setLong(2, LEASE.toMillis());
            });
            c.rollback();
            return explained;
        });
        Set<String> queue = Set.of("webhook_deliveries", "webhook_heads");
        long read = PlanReads.rowsRead(plan, queue);
        assertTrue(read <= 100, read + " rows read for 5 due heads beside " + IN_FLIGHT + " in flight: " + plan);
        // the endpoints (one row per app, a handful in the test database) may be read whole
        assertEquals(List.of(), PlanReads.seqScans(plan).stream().filter(queue::contains).toList(), plan.toString());
    }

    @Test
    void aConversationsNextEventIsClaimedOnlyAfterTheOneBeforeIsDelivered() {
        String app = newApp();
        database.inTransaction(c -> {
            endpoint(c, app);
            deliveries.queue(c, List.of(queued(app, "evt_1", "a"), queued(app, "evt_2", "a"),
                    queued(app, "evt_3", "b")));
            List<ClaimedDelivery> first = ofApp(deliveries.claim(c, 100, LEASE), app);
            assertEquals(List.of("evt_1", "evt_3"), first.stream().map(ClaimedDelivery::eventId).toList());
            assertEquals(List.of(), ofApp(deliveries.claim(c, 100, LEASE), app), "both heads are in flight");

            // evt_1 fails: its conversation waits for the retry; evt_3 is delivered and b has nothing more
            deliveries.record(c, first, List.of(
                    new DeliveryStore.Outcome(first.get(0).id(), false, 500, 3, "no", Instant.now().minusSeconds(1)),
                    new DeliveryStore.Outcome(first.get(1).id(), true, 200, 3, "ok", null)));
            assertEquals(List.of("evt_1"), eventIds(ofApp(deliveries.claim(c, 100, LEASE), app)),
                    "the failed head again, never evt_2 before it");
            assertEquals(1, count(c, "select count(*) from webhook_heads where app_id = '" + app + "'"),
                    "b's head is gone with its last event");

            // a new event of b while a's head is in flight makes b a head again
            deliveries.queue(c, List.of(queued(app, "evt_4", "b")));
            assertEquals(List.of("evt_4"), eventIds(ofApp(deliveries.claim(c, 100, LEASE), app)));
            c.rollback();
            return null;
        });
    }

    @Test
    void afterADeliveryTheHeadIsTheConversationsNextEvent() {
        String app = newApp();
        database.inTransaction(c -> {
            endpoint(c, app);
            deliveries.queue(c, List.of(queued(app, "evt_1", "a"), queued(app, "evt_2", "a"),
                    queued(app, "evt_3", "a")));
            for (String expected : List.of("evt_1", "evt_2", "evt_3")) {
                List<ClaimedDelivery> claimed = ofApp(deliveries.claim(c, 100, LEASE), app);
                assertEquals(List.of(expected), eventIds(claimed));
                deliveries.record(c, claimed, List.of(
                        new DeliveryStore.Outcome(claimed.get(0).id(), true, 200, 1, "ok", null)));
            }
            assertEquals(0, count(c, "select count(*) from webhook_heads where app_id = '" + app + "'"));
            c.rollback();
            return null;
        });
    }

    private static String newApp() {
        return "hd" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static DeliveryStore.Queued queued(String app, String eventId, String conversation) {
        return new DeliveryStore.Queued(app, eventId, "message.created", conversation, "{}");
    }

    /** Only this test's app: other tests' deliveries may be due in the same database. */
    private static List<ClaimedDelivery> ofApp(List<ClaimedDelivery> claimed, String app) {
        return claimed.stream().filter(d -> d.appId().equals(app)).toList();
    }

    private static List<String> eventIds(List<ClaimedDelivery> claimed) {
        return claimed.stream().map(ClaimedDelivery::eventId).toList();
    }

    private void endpoint(Connection c, String app) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("insert into webhook_endpoints (app_id, url, events,"
                + " before_send, hook_timeout_ms, hook_fail_open, batch_size, secret_sealed, updated_at)"
                + " values (?, 'http://127.0.0.1:9/none', '{*}', false, 500, true, 1, ?, now())")) {
            s.setString(1, app);
            s.setBytes(2, secrets.seal("whsec_x", app));
            s.executeUpdate();
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
