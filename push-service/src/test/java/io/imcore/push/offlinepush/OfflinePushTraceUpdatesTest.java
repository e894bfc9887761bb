package io.imcore.push.offlinepush;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What happens to a notification's trace row after its insert (push-worker's claim and finish, the provider's
 * receipt) changes no column an index of the table covers or filters on, and the table leaves room on each page
 * (migration V18), so PostgreSQL keeps every such update heap-only (HOT): no new index entries per update. Counted
 * by the backend's table statistics before and after the updates, on three rows whose versions all fit in the room
 * a page keeps.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class OfflinePushTraceUpdatesTest {

    private static final int ROWS = 3;

    @Inject
    Database database;

    @Test
    void theClaimTheFinishAndTheReceiptAreHeapOnlyUpdates() {
        String appId = "hot" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        long[] counted = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id,"
                        + " conversation, decision, channel, state) select '" + appId + "', 7, g, 1, g, 'u:1',"
                        + " 'offline_push', 'vendor_b', 'queued' from generate_series(1, " + ROWS + ") g");
                // the backend's counts also hold its earlier transactions' not yet reported: compare before and after
                long[] before = updates(s);
                String mine = " where app_id = '" + appId + "'";
                // the claim: queued -> sending under a lease
                s.executeUpdate("update offline_push_trace set state = 'sending', owner = 'worker-1',"
                        + " lease_until = now() + interval '30 seconds'" + mine);
                // the finish: the provider's answer
                s.executeUpdate("update offline_push_trace set state = 'sent', owner = null, lease_until = null,"
                        + " reason = null, sent_at = now()" + mine);
                // the receipt
                s.executeUpdate("update offline_push_trace set received_at = now()" + mine);
                long[] after = updates(s);
                c.rollback();
                return new long[] {after[0] - before[0], after[1] - before[1]};
            }
        });
        assertEquals(3 * ROWS, counted[0], "updates");
        assertEquals(counted[0], counted[1], "heap-only updates of " + counted[0]);
    }

    /** The table's updated and heap-only updated rows as this backend counts them. */
    private static long[] updates(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("select pg_stat_get_xact_tuples_updated('offline_push_trace'::regclass),"
                + " pg_stat_get_xact_tuples_hot_updated('offline_push_trace'::regclass)")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
