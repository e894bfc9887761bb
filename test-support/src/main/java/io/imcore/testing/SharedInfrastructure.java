package io.imcore.testing;

import io.imcore.common.kafka.KafkaClients;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real PostgreSQL (embedded binaries) and one real single-node KRaft Kafka broker per test JVM (per class
 * loader: Quarkus tests and plain tests each get theirs), plus the token key pair of that JVM, written as the key
 * files the services read (a one-key JWKS and the signing key). Started on first use (Kafka only when a test needs
 * it), stopped when the JVM exits; every test class shares them.
 */
public final class SharedInfrastructure {

    private static SharedInfrastructure instance;

    private final EmbeddedPostgres postgres;
    private final KeyPair jwtKeys;
    private final Path jwtKeyDirectory;
    /** Kafka's own exit-time clean-ups (its temp dirs), run after the broker stopped instead of racing it. */
    private final List<Runnable> kafkaCleanups = new CopyOnWriteArrayList<>();
    private KafkaClusterTestKit kafka;

    private SharedInfrastructure() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        jwtKeys = newRsaKeyPair();
        jwtKeyDirectory = Files.createTempDirectory("imcore-test-jwt");
        TokenKeyFiles.writeKeySet(jwtKeySetFile(), jwtKeys);
        TokenKeyFiles.writePrivateKey(jwtPrivateKeyFile(), jwtKeys.getPrivate());
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "test-infrastructure-stop"));
    }

    private synchronized KafkaClusterTestKit kafka() {
        if (kafka == null) {
            try {
                kafka = startKafka();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test Kafka", e);
            }
        }
        return kafka;
    }

    private KafkaClusterTestKit startKafka() throws Exception {
        // The kit deletes its temp dirs in JVM shutdown hooks, which run at the same time as ours: a broker still
        // writing then finds its log dir gone and halts the JVM with status 1 after every test passed. So its
        // hooks are collected and run by close(), and a test broker may never end the JVM.
        Exit.setShutdownHookAdder((name, hook) -> kafkaCleanups.add(hook));
        Exit.setHaltProcedure((status, message) ->
                System.err.println("test Kafka asked to halt the JVM (" + status + "): " + message));
        Exit.setExitProcedure((status, message) ->
                System.err.println("test Kafka asked to exit the JVM (" + status + "): " + message));
        KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .setConfigProp("num.partitions", "4")
                .setConfigProp("auto.create.topics.enable", "true")
                .build();
        kit.format();
        kit.startup();
        kit.waitForReadyBrokers();
        return kit;
    }

    public static synchronized SharedInfrastructure get() {
        if (instance == null) {
            try {
                instance = new SharedInfrastructure();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test PostgreSQL/Kafka", e);
            }
        }
        return instance;
    }

    public String jdbcUrl() {
        return jdbcUrl("postgres");
    }

    /** A URL for another database of the shared server (create it first), user and password {@code postgres}. */
    public String jdbcUrl(String database) {
        return postgres.getJdbcUrl("postgres", database);
    }

    /** An empty database of that name on the shared server (dropped first if a run left one), and its URL. */
    public String newDatabase(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl(), "postgres", "postgres");
                Statement statement = c.createStatement()) {
            statement.execute("drop database if exists " + name);
            statement.execute("create database " + name);
        }
        return jdbcUrl(name);
    }

    public String kafkaBootstrapServers() {
        return kafka().bootstrapServers();
    }

    /** The Kafka kit's clients, on the shared broker. */
    public KafkaClients kafkaClients() {
        return KafkaClients.at(kafkaBootstrapServers());
    }

    public KeyPair jwtKeys() {
        return jwtKeys;
    }

    /** The JWKS every service of this JVM verifies with ({@code mp.jwt.verify.publickey.location}). */
    public Path jwtKeySetFile() {
        return jwtKeyDirectory.resolve("jwks.json");
    }

    /** auth-service's signing key ({@code im.jwt.private-key-location}). */
    public Path jwtPrivateKeyFile() {
        return jwtKeyDirectory.resolve("private.pem");
    }

    /** Configuration that points a Quarkus service at this infrastructure. */
    public Map<String, String> quarkusConfig() {
        return Map.of(
                "quarkus.datasource.jdbc.url", jdbcUrl(),
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres",
                "kafka.bootstrap.servers", kafkaBootstrapServers(),
                "mp.jwt.verify.publickey.location", jwtKeySetFile().toString(),
                "im.jwt.private-key-location", jwtPrivateKeyFile().toString());
    }

    public static KeyPair newRsaKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void close() {
        synchronized (this) {
            if (kafka != null) {
                try {
                    kafka.close();
                } catch (Exception ignored) {
                    // the JVM is exiting
                }
                for (Runnable cleanup : kafkaCleanups) {
                    try {
                        cleanup.run();
                    } catch (RuntimeException ignored) {
                        // a temp dir left behind is no reason to fail the run
                    }
                }
            }
        }
        try {
            postgres.close();
        } catch (Exception ignored) {
            // same
        }
        try (var files = Files.list(jwtKeyDirectory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(jwtKeyDirectory);
        } catch (IOException ignored) {
            // same
        }
    }
}
