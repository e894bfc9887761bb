package io.imcore.throttle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.ShippedFlyway;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The throttle tables' migration (db/throttle) with the Flyway settings the module ships, on a new database and on
 * one migrated when each service carried its own copy of the migration (auth-service V2, message-service V3,
 * push-service V6): both end with the three tables and a history that validates.
 */
class ThrottleMigrationTest {

    private static final String MIGRATION = "db/throttle/V0_4__throttle.sql";
    private static final List<String> TABLES = List.of("throttle_failures", "throttle_buckets", "throttle_quotas");

    @TempDir
    Path serviceMigrations;

    @Test
    void aNewDatabaseGetsTheTables() throws Exception {
        String url = SharedInfrastructure.get().newDatabase("throttle_new");
        writeServiceMigration("V1__service.sql", "create table service_rows (id bigint primary key);");

        currentLayout(url).migrate();

        assertTablesExist(url);
        currentLayout(url).validate();
        assertEquals(List.of("0.4", "1"), appliedVersions(url));
    }

    @Test
    void aDatabaseThatAppliedAServiceCopyKeepsItsTablesAndValidates() throws Exception {
        String url = SharedInfrastructure.get().newDatabase("throttle_copied");
        writeServiceMigration("V1__service.sql", "create table service_rows (id bigint primary key);");
        // the copy as the services shipped it: the same tables, created without "if not exists"
        writeServiceMigration("V2__throttle.sql", migrationText().replace(" if not exists", ""));
        writeServiceMigration("V3__service_more.sql", "alter table service_rows add column note text;");
        Flyway.configure().dataSource(url, "postgres", "postgres")
                .locations("filesystem:" + serviceMigrations).load().migrate();
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres")) {
            c.createStatement().execute("insert into throttle_quotas values ('app', 'push-notify', 1, 1000, 1)");
        }

        Files.delete(serviceMigrations.resolve("V2__throttle.sql"));
        currentLayout(url).migrate();

        assertTablesExist(url);
        currentLayout(url).validate();
        assertEquals(List.of("1", "2", "3", "0.4"), appliedVersions(url));
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
                ResultSet kept = c.createStatement().executeQuery("select count(*) from throttle_quotas")) {
            kept.next();
            assertEquals(1, kept.getInt(1), "the existing rows stay");
        }
    }

    /** The service's own migrations beside db/throttle, with the Flyway settings the module ships. */
    private Flyway currentLayout(String url) {
        return ShippedFlyway.onClassPath().configure(url)
                .locations("filesystem:" + serviceMigrations, "classpath:db/throttle").load();
    }

    private void writeServiceMigration(String name, String sql) throws IOException {
        Files.writeString(serviceMigrations.resolve(name), sql);
    }

    private static String migrationText() throws IOException {
        try (InputStream in = ThrottleMigrationTest.class.getClassLoader().getResourceAsStream(MIGRATION)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }


    private static void assertTablesExist(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres")) {
            for (String table : TABLES) {
                try (ResultSet found = c.createStatement().executeQuery("select to_regclass('" + table + "')")) {
                    found.next();
                    assertTrue(found.getString(1) != null, table + " exists");
                }
            }
        }
    }

    /** The history's versions in the order they were applied. */
    private List<String> appliedVersions(String url) {
        return Arrays.stream(currentLayout(url).info().applied())
                .sorted(Comparator.comparing(MigrationInfo::getInstalledRank))
                .map(applied -> applied.getVersion().getVersion())
                .toList();
    }
}
