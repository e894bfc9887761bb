package io.imcore.push.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Receipts;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.PlanReads;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every receipt statement reaches its rows through an index whatever the tables hold (issue 48 point 0): on tables
 * seeded with another app's 10,000 devices, tokens, task ledger rows and offline traces, and analyzed, no plan of the
 * statements the receipt code runs has a sequential scan of a table that grows with the apps, and an offline
 * receipt of that app reads a handful of rows, not the app's tokens of the channel nor the message's trace.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReceiptPlansTest {

    private static final int ROWS = 10_000;
    private static final int FRESH_ROWS = 2_000;
    private static final Set<String> BIG_TABLES = Set.of("push_device_tokens", "push_devices", "push_receipts",
            "offline_push_trace", "push_task_counts", "push_tasks", "push_apps");

    @Inject
    Database database;

    private final String appId = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
    private final String otherApp = "plano" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
    private final String freshApp = "planf" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);

    @BeforeAll
    void seedAnotherAppsRows() {
        database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                // a fixture, not a request: the services' 6 s statement bound is not for seeding tens of thousands
                // of rows on a busy 2-core machine
                s.execute("set local statement_timeout = 0");
                s.execute("insert into push_apps (app_id, push_enabled) select 'plan-app-' || g, true"
                        + " from generate_series(1, 1000) g on conflict do nothing");
                seedDevices(s, otherApp, ROWS);
                // and a 1:1 message's row per device: most messages have one or two rows, as in a chat app
                s.execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id,"
                        + " conversation, decision, channel, state) select app_id, 1000000 + user_id, user_id, 1,"
                        + " device_id, 'u:1', 'offline_push', 'vendor_b', 'sent' from push_devices"
                        + " where app_id = '" + otherApp + "'");
                s.execute("insert into push_tasks (app_id, state, request) values ('" + otherApp + "',"
                        + " 'dispatching', '{}'::jsonb)");
                s.execute("insert into push_receipts (task_id, device_id, channel, received)"
                        + " select (select max(task_id) from push_tasks where app_id = '" + otherApp + "'),"
                        + " device_id, 'vendor_b', false from push_devices where app_id = '" + otherApp + "'");
                s.execute("analyze push_apps, push_devices, push_device_tokens, push_tasks, push_receipts,"
                        + " push_task_counts, offline_push_trace, offline_push_daily");
                // an app whose rows came after the statistics (autovacuum's analyze lags a busy app): the planner
                // believes it has none, the plan must still reach its rows by their whole key
                seedDevices(s, freshApp, FRESH_ROWS);
            }
            return null;
        });
    }

    /** {@code rows} devices of the app with a Xiaomi token each, and a sent offline push trace row each. */
    private static void seedDevices(Statement s, String app, int rows) throws SQLException {
        s.execute("insert into push_devices (app_id, user_id, device_sn) select '" + app + "', g, 1"
                + " from generate_series(1, " + rows + ") g");
        s.execute("insert into push_device_tokens (device_id, channel, app_id, token, notifier_name,"
                + " environment) select device_id, 'vendor_b', app_id, 'plan-token-' || device_id, 'mi', 1"
                + " from push_devices where app_id = '" + app + "'");
        s.execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id,"
                + " conversation, decision, channel, state) select app_id, user_id % 100, user_id, 1,"
                + " device_id, 'u:1', 'offline_push', 'vendor_b', 'sent' from push_devices"
                + " where app_id = '" + app + "'");
    }

    @Test
    void theTaskReceiptStatementUsesIndexesOnly() {
        assertNoSeqScanOfABigTable(Receipts.COUNT_TOKENS, ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("bigint", new Object[] {1L, 2L, 3L}));
            ps.setArray(2, ps.getConnection().createArrayOf("text", new Object[] {"a", "b", "c"}));
            ps.setString(3, appId);
            ps.setString(4, "vendor_b");
            ps.setString(5, "vendor_b");
            ps.setString(6, "vendor_b");
        });
    }

    @Test
    void theAckStatementUsesIndexesOnly() {
        assertNoSeqScanOfABigTable(Receipts.COUNT_ACKS, ps -> {
            ps.setArray(1, ps.getConnection().createArrayOf("bigint", new Object[] {1L, 2L}));
            ps.setArray(2, ps.getConnection().createArrayOf("text", new Object[] {appId, appId}));
            ps.setArray(3, ps.getConnection().createArrayOf("bigint", new Object[] {1L, 2L}));
            ps.setArray(4, ps.getConnection().createArrayOf("int", new Object[] {1, 1}));
            ps.setString(5, "svcpush");
            ps.setString(6, "svcpush");
        });
    }

    @Test
    void theOfflineReceiptStatementUsesIndexesOnly() {
        assertNoSeqScanOfABigTable(OfflineReceipts.COUNT, ps -> offlineReceipt(ps, appId, 1L, "a"));
    }

    @Test
    void anOfflineReceiptReadsItsOwnRowsHoweverManyItsAppHas() {
        // the fresh app holds FRESH_ROWS tokens of the channel and 20 trace rows per message, unknown to the
        // statistics: a receipt reads its own
        JsonNode plan = receiptOfTheNthDevice(freshApp, 500);
        long read = PlanReads.rowsRead(plan, BIG_TABLES);
        assertTrue(read >= 1 && read <= 10, "one receipt read " + read + " rows of the big tables: " + plan);
    }

    @Test
    void anOfflineReceiptOfAGroupMessageReadsItsOwnRowNotTheMessagesOthers() {
        // the other app is analyzed, most of its messages have a trace row and a hundred have 100, as a group
        // message has one per member's device: a receipt reads and stamps its device's row by its whole key, not
        // the message's rows
        JsonNode plan = receiptOfTheNthDevice(otherApp, 700);
        assertEquals(1, plan.path(0).path("Plan").path("Actual Rows").asLong(), "the receipt counted: " + plan);
        long read = PlanReads.rowsRead(plan, BIG_TABLES);
        assertTrue(read >= 1 && read <= 10, "one receipt read " + read + " rows of the big tables: " + plan);
    }

    /**
     * The analyzed generic plan of one receipt for the app's {@code n}th device on its message {@code user_id % 100}
     * (the fixture's trace), run and rolled back: it stamps and counts nothing for good.
     */
    private JsonNode receiptOfTheNthDevice(String app, int n) {
        long[] device = database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select device_id, user_id from push_devices"
                    + " where app_id = ? order by device_id offset ? limit 1")) {
                ps.setString(1, app);
                ps.setInt(2, n);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return new long[] {rs.getLong(1), rs.getLong(2)};
                }
            }
        });
        return database.inTransaction(c -> {
            JsonNode analyzed = PlanReads.analyzeGeneric(c, OfflineReceipts.COUNT,
                    ps -> offlineReceipt(ps, app, device[1] % 100, "plan-token-" + device[0]));
            c.rollback();
            return analyzed;
        });
    }

    /** One callback of one offline receipt of message {@code msgId} (its task id is -msg_id) on Xiaomi. */
    private static void offlineReceipt(PreparedStatement ps, String app, long msgId, String token)
            throws SQLException {
        Connection c = ps.getConnection();
        ps.setArray(1, c.createArrayOf("int4", new Object[] {0}));
        ps.setArray(2, c.createArrayOf("text", new Object[] {app}));
        ps.setArray(3, c.createArrayOf("text", new Object[] {"vendor_b"}));
        ps.setArray(4, c.createArrayOf("bigint", new Object[] {msgId}));
        ps.setArray(5, c.createArrayOf("text", new Object[] {token}));
    }

    @Test
    void theKeyLookupUsesTheAppsPrimaryKey() {
        assertNoSeqScanOfABigTable("select receipt_key_enc from push_apps where app_id = ?",
                ps -> ps.setString(1, appId));
    }

    private void assertNoSeqScanOfABigTable(String sql, PlanReads.Parameters parameters) {
        JsonNode plan = database.read(c -> PlanReads.plan(c, sql, parameters));
        assertTrue(plan.toString().contains("Index"), "the plan uses an index: " + plan);
        assertEquals(List.of(), PlanReads.seqScans(plan).stream().filter(BIG_TABLES::contains).toList(),
                "sequential scans of big tables in " + plan);
    }
}
