package io.imcore.message.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.ObjectStoreResource;
import io.imcore.testing.PlanReads;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The download check finds the messages carrying a file by index whatever the tables hold: on 20,000 conversations
 * of another app with 40,000 messages (one in a hundred with a file), analyzed, the generic plan scans no table in
 * full.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@QuarkusTestResource(value = ObjectStoreResource.class, parallel = true)
class FilePlansTest {

    private static final int CONVERSATIONS = 20_000;
    private static final int MESSAGES_EACH = 2;

    @Inject
    Database database;

    @Test
    void theDownloadCheckReadsTheFilesMessagesByIndex() {
        String otherApp = "plans" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        JsonNode plan = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0"); // a fixture on a busy machine, not a request
                s.execute("insert into conversations (app_id, kind, low_id, high_id, last_seq, last_msg_id)"
                        + " select '" + otherApp + "', 1, g, 1000000 + g, " + MESSAGES_EACH + ", 0"
                        + " from generate_series(1, " + CONVERSATIONS + ") g");
                s.execute("insert into conversation_members (conversation_id, user_id, app_id, peer_id)"
                        + " select id, low_id, app_id, high_id from conversations where app_id = '" + otherApp + "'");
                s.execute("insert into messages (conversation_id, msg_id, seq, sender_id, target_id, content_type,"
                        + " content, attachment, created_ms)"
                        + " select v.id, nextval('msg_ids'), n, v.low_id, v.high_id, 1, '',"
                        + " case when n = 2 and v.id % 50 = 0 then '{\"file_id\":' || v.id || ',\"type\":\"image\"}'"
                        + " else 'https://example.com/a.jpg' end, 0"
                        + " from conversations v, generate_series(1, " + MESSAGES_EACH + ") n"
                        + " where v.app_id = '" + otherApp + "'");
                s.execute("analyze conversations, conversation_members, messages");
                s.execute("set local plan_cache_mode = force_generic_plan");
            }
            JsonNode explained = PlanReads.plan(c, FileStore.VIEWABLE, ps -> {
                ps.setLong(1, 5);
                ps.setLong(2, 5000);
                ps.setString(3, otherApp);
            });
            c.rollback();
            return explained;
        });
        assertTrue(plan.toString().contains("messages_by_file"), plan.toString());
        assertEquals(List.of(), PlanReads.seqScans(plan), plan.toString());
    }

    /** The console's page of a user's files: a range of files_by_owner, each file's message by messages_by_file. */
    @Test
    void aUsersFilesAreReadByIndex() {
        String otherApp = "owned" + UUID.randomUUID().toString().replace("-", "").substring(0, 11);
        JsonNode plan = database.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("set local statement_timeout = 0");
                s.execute("insert into files (file_id, app_id, owner_id, object_key, name, declared_size, sha256,"
                        + " content_type) select nextval('file_ids'), '" + otherApp + "', g % 2000, 'k', 'n', 1,"
                        + " '\\x00', 'text/plain' from generate_series(1, 40000) g");
                s.execute("analyze files");
                s.execute("set local plan_cache_mode = force_generic_plan");
            }
            JsonNode explained = PlanReads.plan(c, FileStore.OWNED_BY, ps -> {
                ps.setString(1, otherApp);
                ps.setLong(2, 5);
                ps.setLong(3, Long.MAX_VALUE);
                ps.setInt(4, 21);
            });
            c.rollback();
            return explained;
        });
        assertTrue(plan.toString().contains("files_by_owner"), plan.toString());
        assertTrue(plan.toString().contains("messages_by_file"), plan.toString());
        assertEquals(List.of(), PlanReads.seqScans(plan), plan.toString());
    }
}
