package io.imcore.pushworker.channel;

import io.imcore.simulators.ProviderSimulator;
import io.vertx.core.Vertx;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A provider simulator running in this JVM for one test class, as a static {@code @RegisterExtension} field: started
 * on a free port of 127.0.0.1 before the class's {@code @BeforeAll} methods, reset (requests, faults, apps) before
 * each test, stopped after the class.
 */
public final class InJvmSimulator implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private final ProviderSimulator simulator;
    private Vertx vertx;
    private Path workDir;

    public InJvmSimulator(ProviderSimulator simulator) {
        this.simulator = simulator;
    }

    /** The simulator's address over plain HTTP (the APNs one speaks TLS: use {@link #port()}). */
    public URI base() {
        return URI.create("http://127.0.0.1:" + simulator.port());
    }

    public int port() {
        return simulator.port();
    }

    /** Where the simulator writes the files its clients need (the APNs one: apns-ca.pem). */
    public Path workDir() {
        return workDir;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        vertx = Vertx.vertx();
        workDir = Files.createTempDirectory("simulator-" + simulator.channel());
        // the APNs simulator makes its TLS certificate first: slow
        simulator.start(vertx, "127.0.0.1", 0, workDir).toCompletionStage().toCompletableFuture()
                .get(60, TimeUnit.SECONDS);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        simulator.reset();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try (Stream<Path> files = Files.walk(workDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
