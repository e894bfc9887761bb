package io.imcore.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.SharedInfrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;

/**
 * Several replicas starting at once all run the migrations at start (Kubernetes rollouts do that): Flyway's
 * PostgreSQL lock must let exactly one apply each version and the others find the schema done.
 */
class ConcurrentMigrationTest {

    @Test
    void replicasMigratingAtOnceApplyEachVersionOnce() throws Exception {
        String url = SharedInfrastructure.get().newDatabase("migration_race");
        int replicas = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(replicas);
        try {
            List<Future<MigrateResult>> runs = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                runs.add(pool.submit(() -> {
                    start.await();
                    return Flyway.configure().dataSource(url, "postgres", "postgres")
                            .locations("classpath:db/migration", "classpath:db/outbox", "classpath:db/throttle").load().migrate();
                }));
            }
            start.countDown();
            int applied = 0;
            for (Future<MigrateResult> run : runs) {
                MigrateResult result = run.get();
                assertTrue(result.success);
                applied += result.migrationsExecuted;
            }
            int versions = Flyway.configure().dataSource(url, "postgres", "postgres")
                    .locations("classpath:db/migration", "classpath:db/outbox", "classpath:db/throttle").load().info().applied().length;
            assertTrue(versions >= 3, "V1, the throttle tables and the outbox: " + versions);
            assertEquals(versions, applied, "each migration ran once in total");
        } finally {
            pool.shutdownNow();
        }
        try (Connection connection = DriverManager.getConnection(url, "postgres", "postgres");
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(
                        "select count(*), count(distinct version) from flyway_schema_history where success")) {
            rs.next();
            assertEquals(rs.getInt(2), rs.getInt(1), "one history row per version");
            assertTrue(rs.getInt(2) >= 3, "V1, the throttle tables and the outbox");
        }
    }
}
