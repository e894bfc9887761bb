package io.imcore.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** ChunkedDelete, the background purges' delete, on a real PostgreSQL. */
@QuarkusTest
@QuarkusTestResource(TestPostgresResource.class)
class ChunkedDeleteTest {

    @Inject
    Database database;

    @Test
    void deletesEveryMatchingRowInChunksAndKeepsTheOthers() {
        // one connection throughout: the temporary table is the session's
        long[] result = database.autoCommit(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("create temporary table purge_sample (id int, created_at timestamptz)");
                s.execute("insert into purge_sample select i, now() - interval '2 hours' from generate_series(1, 2345) i");
                s.execute("insert into purge_sample select i, now() from generate_series(2346, 2400) i");
                // 2,345 old rows in chunks of 100: 23 full chunks, then one of 45 that ends the loop
                long deleted = ChunkedDelete.delete(c, "purge_sample", "created_at < now() - ? * interval '1 second'",
                        1, (ps, first) -> ps.setLong(first, 3600), 100);
                try (ResultSet rs = s.executeQuery("select count(*), min(id) from purge_sample")) {
                    rs.next();
                    return new long[] {deleted, rs.getLong(1), rs.getLong(2)};
                }
            }
        });
        assertEquals(2345, result[0]);
        assertEquals(55, result[1]);
        assertEquals(2346, result[2]);
    }

    @Test
    void aBacklogOfExactlyOneChunkEndsWithAnEmptyStatement() {
        long deleted = database.autoCommit(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("create temporary table purge_exact (id int)");
                s.execute("insert into purge_exact select i from generate_series(1, 300) i");
            }
            return ChunkedDelete.delete(c, "purge_exact", "id > ?", 1, (ps, first) -> ps.setInt(first, 0), 100);
        });
        assertEquals(300, deleted);
    }
}
