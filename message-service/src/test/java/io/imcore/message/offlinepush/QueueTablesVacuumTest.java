package io.imcore.message.offlinepush;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.imcore.common.store.Database;
import io.imcore.testing.InfrastructureResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The queue tables are vacuumed after a few thousand dead rows (migration V5, docs/operations.md). */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class QueueTablesVacuumTest {

    @Inject
    Database database;

    @Test
    void queueTablesHaveTheirOwnAutovacuumThresholds() {
        Map<String, List<String>> options = database.read(c -> {
            Map<String, List<String>> found = new TreeMap<>();
            try (PreparedStatement ps = c.prepareStatement("select relname, reloptions from pg_class"
                    + " where relname in ('offline_push_queue', 'outbox') and relkind = 'r'")) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.put(rs.getString(1), rs.getArray(2) == null ? List.of()
                                : List.of((String[]) rs.getArray(2).getArray()));
                    }
                }
            }
            return found;
        });
        List<String> expected = List.of("autovacuum_vacuum_scale_factor=0", "autovacuum_vacuum_threshold=5000",
                "autovacuum_vacuum_cost_delay=0");
        assertEquals(Map.of("offline_push_queue", expected, "outbox", expected), options);
    }
}
