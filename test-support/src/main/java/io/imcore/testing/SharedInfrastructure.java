package io.imcore.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real PostgreSQL (embedded binaries) and one real single-node KRaft Kafka broker per test JVM, plus the
 * JWT key pair of that JVM. Started on first use, stopped when the JVM exits; every test class shares them.
 */
public final class SharedInfrastructure {

    private static SharedInfrastructure instance;

    private final EmbeddedPostgres postgres;
    private final KafkaClusterTestKit kafka;
    private final KeyPair jwtKeys;

    private SharedInfrastructure() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
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
        kafka.format();
        kafka.startup();
        kafka.waitForReadyBrokers();
        jwtKeys = newRsaKeyPair();
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "test-infrastructure-stop"));
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

    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    public KeyPair jwtKeys() {
        return jwtKeys;
    }

    /** Configuration that points a Quarkus service at this infrastructure. */
    public Map<String, String> quarkusConfig() {
        return Map.of(
                "quarkus.datasource.jdbc.url", jdbcUrl(),
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres",
                "kafka.bootstrap.servers", kafkaBootstrapServers(),
                "im.jwt.public-key", Base64.getEncoder().encodeToString(jwtKeys.getPublic().getEncoded()),
                "im.jwt.private-key", Base64.getEncoder().encodeToString(jwtKeys.getPrivate().getEncoded()));
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
        try {
            kafka.close();
        } catch (Exception ignored) {
            // the JVM is exiting; the temp dirs go with it
        }
        try {
            postgres.close();
        } catch (Exception ignored) {
            // same
        }
    }
}
