package io.imcore.message.offlinepush;

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
 * The publisher's first count of a recipient's unread messages reaches its rows through indexes whatever the tables
 * hold (issue 48 point 0): on 20,000 conversations of another app's 200 users with as many queued messages and read
 * changes, analyzed, the plan a server-prepared statement settles on (the generic one) reads no table in full.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PublisherPlansTest {

    private static final int CONVERSATIONS = 20_000;
    /** The users of those conversations: each is in 100, as the members of a busy app are. */
    private static final int USERS = 200;

    @Inject
    Database database;

    @Test
    void theFirstUnreadCountOfAPassReadsItsMembersConversationsAndQueueByKey() {
        String otherApp = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        JsonNode plan = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
                s.execute("insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id)"
                        + " select '" + otherApp + "', 1, g % " + USERS + ", 1000000 + g, 3, g"
                        + " from generate_series(1, " + CONVERSATIONS + ") g");
                s.execute("insert into conversation_members (conversation_id, user_id, app_id, peer_id)"
                        + " select id, low_id, app_id, high_id from conversations where app_id = '" + otherApp + "'");
                s.execute("insert into offline_push_queue (app_id, conversation_id, msg_id)"
                        + " select app_id, id, id from conversations where app_id = '" + otherApp + "'");
                s.execute("insert into unread_changes (app_id, user_id, read)"
                        + " select app_id, low_id, 1 from conversations where app_id = '" + otherApp + "'");
                s.execute("analyze conversations, conversation_members, offline_push_queue, unread_changes");
                s.execute("set local plan_cache_mode = force_generic_plan");
            }
            JsonNode explained = PlanReads.plan(c, UnreadCounts.FIRST_COUNT, ps -> {
                ps.setArray(1, Database.bigints(c, new long[] {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                        19, 20, 21, 22, 23, 24, 25}));
                for (int i = 2; i <= 5; i++) {
                    ps.setString(i, otherApp);
                }
            });
            c.rollback();
            return explained;
        });
        assertTrue(plan.toString().contains("Index"), plan.toString());
        assertEquals(List.of(), PlanReads.seqScans(plan), plan.toString());
    }
}
