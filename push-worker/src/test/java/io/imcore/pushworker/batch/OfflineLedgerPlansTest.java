package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.store.Database;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.testing.PlanReads;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A claim reads its own rows whatever the message holds (issue 48 point 0): a group message of 20,000 trace rows
 * among 200,000 of other messages, a claim of 500 of its devices under the generic plan (what a server-prepared
 * statement settles on) reads about 500 rows, not all the message's rows.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
class OfflineLedgerPlansTest {

    private static final int MESSAGE_ROWS = 20_000;
    private static final int CLAIMED = 500;
    private static final int OTHER_ROWS = 200_000;

    @Inject
    Database database;

    @Test
    void aGroupMessagesClaimReadsItsDevicesRowsByKey() {
        String appId = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        JsonNode plan = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
                s.execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id,"
                        + " conversation, decision, channel, state) select '" + appId + "', 7, g, 1, g, 'g:1',"
                        + " 'offline_push', 'vendor_b', 'queued' from generate_series(1, " + MESSAGE_ROWS + ") g");
                // the table holds other messages too, as in production (there it holds millions)
                s.execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id,"
                        + " conversation, decision, channel, state) select '" + appId + "-other', g % 1000, g, 1, g,"
                        + " 'u:1', 'offline_push', 'vendor_b', 'sent' from generate_series(1, " + OTHER_ROWS + ") g");
                s.execute("analyze offline_push_trace");
            }
            JsonNode analyzed = PlanReads.analyzeGeneric(c, OfflineLedger.CLAIM, ps -> {
                ps.setArray(1, c.createArrayOf("text", LongStream.range(0, CLAIMED).mapToObj(i -> appId).toArray()));
                ps.setArray(2, Database.bigints(c, LongStream.range(0, CLAIMED).map(i -> 7).toArray()));
                ps.setArray(3, Database.bigints(c, LongStream.rangeClosed(1, CLAIMED).toArray()));
                ps.setString(4, "plans-worker");
            });
            c.rollback();
            return analyzed;
        });
        long read = PlanReads.rowsRead(plan, Set.of("offline_push_trace"));
        assertTrue(read >= CLAIMED && read <= 2 * CLAIMED, "a claim of " + CLAIMED + " devices read " + read
                + " trace rows: " + plan);
    }
}
