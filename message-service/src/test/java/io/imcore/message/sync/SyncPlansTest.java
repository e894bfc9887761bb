package io.imcore.message.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.PlanReads;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A sync costs a page read, not a scan (issue 49): on a log holding 40,000 messages of 400 users, analyzed, the
 * generic plan of a page reads one range of the log's primary key and the page's messages and members by key.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class SyncPlansTest {

    private static final int USERS = 400;
    private static final int CHANGES_EACH = 100;

    @Inject
    Database database;

    @Test
    void aPageOfOneUsersLogReadsItsRangeByKey() {
        String app = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        JsonNode plan = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
            }
            // 400 users with 100 messages each, every message in its user's log
            try (Statement s = c.createStatement()) {
                s.execute("insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id)"
                        + " select '" + app + "', 1, g, 100000 + g, " + CHANGES_EACH + ", 0"
                        + " from generate_series(1, " + USERS + ") g");
                s.execute("insert into conversation_members (conversation_id, user_id, app_id, peer_id)"
                        + " select id, low_id, app_id, high_id from conversations where app_id = '" + app + "'");
                s.execute("insert into messages (conversation_id, msg_id, seq, sender_id, target_id, content_type,"
                        + " content, created_ms) select v.id, v.id * 1000 + n, n, v.high_id, v.low_id, 0, 'x', 0"
                        + " from conversations v, generate_series(1, " + CHANGES_EACH + ") n where v.app_id = '" + app + "'");
                s.execute("insert into sync_events (app_id, user_id, position, type, peer_id, conversation_id, msg_id)"
                        + " select v.app_id, v.low_id, n, 1, v.high_id, v.id, v.id * 1000 + n"
                        + " from conversations v, generate_series(1, " + CHANGES_EACH + ") n where v.app_id = '" + app + "'");
            }
            try (Statement s = c.createStatement()) {
                s.execute("analyze sync_events, messages, conversation_members, conversations");
                s.execute("set local plan_cache_mode = force_generic_plan");
            }
            JsonNode explained = PlanReads.plan(c, SyncStore.PAGE, ps -> {
                ps.setString(1, app);
                ps.setLong(2, 42);
                ps.setLong(3, 10);
                ps.setLong(4, Long.MAX_VALUE);
                ps.setInt(5, 101);
            });
            c.rollback();
            return explained;
        });
        assertTrue(plan.toString().contains("sync_events_pkey"), plan.toString());
        assertEquals(List.of(), PlanReads.seqScans(plan), plan.toString());
    }
}
