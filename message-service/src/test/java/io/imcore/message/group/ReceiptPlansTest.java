package io.imcore.message.group;

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
 * A group message's receipts read the group's member rows by key whatever the tables hold (issue 49 point 5): on
 * 2,000 groups of 50 members each, analyzed, the generic plans of the counts and of a page read no table in full.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class ReceiptPlansTest {

    private static final int GROUPS = 2_000;
    private static final int MEMBERS = 50;

    @Inject
    Database database;

    @Test
    void theCountsAndAPageOfReceiptsReadTheMembersByKey() {
        String otherApp = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        List<JsonNode> plans = database.inTransaction(c -> {
            long conversation;
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
                s.execute("insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id)"
                        + " select '" + otherApp + "', 2, 2000000000000 + g, 0, 10, g"
                        + " from generate_series(1, " + GROUPS + ") g");
                s.execute("insert into conversation_members (conversation_id, user_id, app_id, peer_id, read_seq)"
                        + " select c.id, u, c.app_id, c.low_id, u % 10 from conversations c,"
                        + " generate_series(1, " + MEMBERS + ") u where c.app_id = '" + otherApp + "'");
                s.execute("analyze conversations, conversation_members");
                s.execute("set local plan_cache_mode = force_generic_plan");
                try (var rs = s.executeQuery("select min(id) from conversations where app_id = '" + otherApp + "'")) {
                    rs.next();
                    conversation = rs.getLong(1);
                }
            }
            JsonNode counts = PlanReads.plan(c, GroupStore.RECEIPT_COUNTS, ps -> {
                ps.setLong(1, 5);
                ps.setLong(2, 5);
                ps.setLong(3, conversation);
                ps.setLong(4, 1);
                ps.setLong(5, System.currentTimeMillis());
            });
            JsonNode page = PlanReads.plan(c, GroupStore.RECEIPT_PAGE, ps -> {
                ps.setLong(1, 5);
                ps.setLong(2, conversation);
                ps.setLong(3, 1);
                ps.setLong(4, System.currentTimeMillis());
                ps.setLong(5, 0);
                ps.setInt(6, 101);
            });
            c.rollback();
            return List.of(counts, page);
        });
        for (JsonNode plan : plans) {
            assertTrue(plan.toString().contains("Index"), plan.toString());
            assertEquals(List.of(), PlanReads.seqScans(plan), plan.toString());
        }
    }
}
