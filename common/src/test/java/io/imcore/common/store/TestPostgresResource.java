package io.imcore.common.store;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A real PostgreSQL (embedded binaries) for common's Quarkus tests of its store, one per test JVM like test-support's
 * {@code SharedInfrastructure}, which common cannot use: test-support depends on common.
 */
public class TestPostgresResource implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedPostgres postgres;

    @Override
    public Map<String, String> start() {
        return Map.of("quarkus.datasource.jdbc.url", server().getJdbcUrl("postgres", "postgres"),
                "quarkus.datasource.username", "postgres", "quarkus.datasource.password", "postgres");
    }

    private static synchronized EmbeddedPostgres server() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the test PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(TestPostgresResource::close, "test-postgres-stop"));
        }
        return postgres;
    }

    private static void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            // the JVM is ending; the server's directory is a temporary one
        }
    }

    @Override
    public void stop() {
        // shared by every test class of this JVM; stopped by the shutdown hook
    }
}
