package io.imcore.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;

/**
 * PostgreSQL for the local stack when no server binaries are installed.
 * Usage: EmbeddedPg PORT DATA_DIR DB...
 * Keeps its data between runs, creates each DB with a role of the same name and password (idempotent),
 * prints "embedded-pg ready" and blocks; on SIGTERM zonky's own shutdown hook stops the server.
 */
public final class EmbeddedPg {

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: EmbeddedPg PORT DATA_DIR [DB...]");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        File dataDir = new File(args[1]).getAbsoluteFile();
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setServerConfig("listen_addresses", "127.0.0.1")
                // up.sh's connection budget (deploy/local/lib.sh)
                .setServerConfig("max_connections", System.getProperty("max_connections", "100"))
                // the queue tables' vacuums come this often (docs/operations.md "PostgreSQL settings")
                .setServerConfig("autovacuum_naptime", "10s")
                .start();
        try (Connection admin = pg.getPostgresDatabase().getConnection()) {
            for (int i = 2; i < args.length; i++) {
                ensureDatabase(admin, args[i]);
            }
        }
        System.out.println("embedded-pg ready on 127.0.0.1:" + port + " data " + dataDir);
        new CountDownLatch(1).await();
    }

    /** Role NAME with password NAME owning database NAME; created only when missing. */
    private static void ensureDatabase(Connection admin, String name) throws SQLException {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        try (Statement st = admin.createStatement()) {
            if (!exists(admin, "SELECT 1 FROM pg_roles WHERE rolname = ?", name)) {
                st.execute("CREATE ROLE " + name + " LOGIN PASSWORD '" + name + "'");
            }
            if (!exists(admin, "SELECT 1 FROM pg_database WHERE datname = ?", name)) {
                st.execute("CREATE DATABASE " + name + " OWNER " + name);
            }
        }
    }

    private static boolean exists(Connection admin, String sql, String name) throws SQLException {
        try (PreparedStatement ps = admin.prepareStatement(sql)) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
