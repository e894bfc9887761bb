package io.imcore.message.offlinepush;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.ShippedFlyway;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unread counts' schema: tables in V6_1 and V11_1, the trigger function in the repeatable R__unread_change. They
 * replaced V6 and V11, which each carried a whole copy of the function and are applied in existing databases. With
 * the Flyway settings the service ships, a new database and one migrated with V6 and V11 both end with the tables,
 * today's function and both triggers, and a history that validates; the existing rows stay.
 */
class UnreadCountMigrationTest {

    private static final ShippedFlyway SHIPPED = ShippedFlyway.onClassPath();
    private static final List<String> REPLACED_BY_OLD_FILES =
            List.of("V6_1__unread_counts.sql", "V11_1__recall_edit.sql", "R__unread_change.sql");

    @TempDir
    Path oldMigrations;

    @Test
    void aNewDatabaseGetsTheTablesTheFunctionAndTheTriggers() throws Exception {
        String url = SharedInfrastructure.get().newDatabase("unread_new");

        shippedLayout(url).migrate();

        shippedLayout(url).validate();
        assertCurrentSchema(url);
    }

    @Test
    void aDatabaseMigratedWithV6AndV11UpgradesAndKeepsItsRows() throws Exception {
        String url = SharedInfrastructure.get().newDatabase("unread_upgraded");
        writeOldMigrations();
        oldLayout(url).migrate();
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres"); Statement s = c.createStatement()) {
            s.execute("update unread_counting set counting = true");
            s.execute("insert into unread_counts values ('app', 7, 3)");
            s.execute("insert into message_settings (app_id, recall_window_seconds) values ('app', 60)");
            // the body V6 shipped knew nothing of recalls: the upgrade must replace it
            s.execute("create or replace function unread_change() returns trigger language plpgsql"
                    + " as $$ begin return null; end $$");
        }

        shippedLayout(url).migrate();

        shippedLayout(url).validate();
        assertCurrentSchema(url);
        List<String> versions = appliedVersions(url);
        assertTrue(versions.containsAll(List.of("6", "11", "6.1", "11.1")), "the old rows stay, the new ones ran: " + versions);
        assertEquals("true 3 60", query(url, "select (select counting from unread_counting) || ' '"
                + " || (select unread from unread_counts where user_id = 7) || ' '"
                + " || (select recall_window_seconds from message_settings where app_id = 'app')"));
    }

    /** The service's migrations as they were before V6_1: V6 and V11 made the same objects without "if not exists". */
    private void writeOldMigrations() throws IOException, URISyntaxException {
        try (Stream<Path> shipped = Files.list(classpathDirectory("db/migration"))) {
            for (Path file : shipped.toList()) {
                if (!REPLACED_BY_OLD_FILES.contains(file.getFileName().toString())) {
                    Files.copy(file, oldMigrations.resolve(file.getFileName()));
                }
            }
        }
        String function = migration("R__unread_change.sql");
        Files.writeString(oldMigrations.resolve("V6__unread_counts.sql"), withoutGuards(migration("V6_1__unread_counts.sql"))
                + "\n" + function.replace("create or replace trigger", "create trigger"));
        Files.writeString(oldMigrations.resolve("V11__recall_edit.sql"), withoutGuards(migration("V11_1__recall_edit.sql"))
                + "\n" + function.substring(0, function.indexOf("create or replace trigger")));
    }

    private static String withoutGuards(String sql) {
        return sql.replace(" if not exists", "").replace(" on conflict do nothing", "");
    }

    private Flyway oldLayout(String url) {
        List<String> locations = new ArrayList<>(List.of("filesystem:" + oldMigrations));
        locations.addAll(SHIPPED.locations().stream().filter(location -> !location.equals("db/migration")).toList());
        return Flyway.configure().dataSource(url, "postgres", "postgres")
                .locations(locations.toArray(String[]::new)).load();
    }

    /** The locations and the Flyway settings message-service runs with. */
    private static Flyway shippedLayout(String url) {
        return SHIPPED.configure(url).locations(SHIPPED.locations().toArray(String[]::new)).load();
    }

    private static void assertCurrentSchema(String url) throws SQLException, IOException {
        assertEquals("message_settings unread_changes unread_counting unread_counts", query(url,
                "select string_agg(relname, ' ' order by relname) from pg_class where relkind = 'r' and relname in"
                        + " ('unread_counts', 'unread_changes', 'unread_counting', 'message_settings')"));
        assertEquals("conversation_members_gone conversation_members_read", query(url,
                "select string_agg(tgname, ' ' order by tgname) from pg_trigger"
                        + " where tgrelid = 'conversation_members'::regclass and not tgisinternal"));
        String body = query(url, "select prosrc from pg_proc where proname = 'unread_change'");
        String shipped = migration("R__unread_change.sql");
        assertTrue(shipped.contains(body), "the function's body is R__unread_change's");
    }

    private static String migration(String name) throws IOException {
        try (InputStream in = UnreadCountMigrationTest.class.getClassLoader().getResourceAsStream("db/migration/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Path classpathDirectory(String name) throws URISyntaxException {
        return Path.of(UnreadCountMigrationTest.class.getClassLoader().getResource(name).toURI());
    }

    private static String query(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
                ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }


    /** The history's versions in the order they were applied (the repeatable migration has none). */
    private static List<String> appliedVersions(String url) {
        return Arrays.stream(shippedLayout(url).info().applied())
                .filter(applied -> applied.getVersion() != null)
                .sorted(Comparator.comparing(MigrationInfo::getInstalledRank))
                .map(applied -> applied.getVersion().getVersion())
                .toList();
    }
}
