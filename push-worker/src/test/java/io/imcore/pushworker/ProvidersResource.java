package io.imcore.pushworker;

import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.SharedInfrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The shared PostgreSQL and Kafka, push-service's schema, the seven provider simulators and the svcpush stand-in,
 * started once per test JVM, with the worker's channels pointed at them.
 */
public class ProvidersResource implements QuarkusTestResourceLifecycleManager {

    public static final String INTERNAL_KEY = "test-internal-key";
    private static Simulators simulators;
    private static Path workDir;

    public static synchronized Simulators simulators() {
        if (simulators == null) {
            try {
                workDir = Files.createTempDirectory("push-simulators");
                simulators = Simulators.start(workDir, 0);
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the provider simulators", e);
            }
        }
        return simulators;
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(SharedInfrastructure.get().quarkusConfig());
        config.putAll(channelConfig(simulators(), workDir));
        try {
            config.put("im.push.worker.channel.svcpush.base-url",
                    "http://127.0.0.1:" + LiveNotifyStandIn.start(INTERNAL_KEY));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        config.put("im.internal-key", INTERNAL_KEY);
        return config;
    }

    /** Every OS channel of the worker pointed at its simulator. */
    public static Map<String, String> channelConfig(Simulators sims, Path simulatorsDir) {
        Map<String, String> config = new HashMap<>();
        for (var entry : sims.byChannel().entrySet()) {
            String channel = entry.getKey();
            String prefix = "im.push.worker.channel." + channel + ".";
            boolean tls = channel.equals("ios");
            String base = (tls ? "https" : "http") + "://127.0.0.1:" + entry.getValue().port();
            config.put(prefix + "base-url", base);
            config.put(prefix + "development-base-url", base);
            if (tls) {
                config.put(prefix + "trust-certificate", simulatorsDir.resolve("apns-ca.pem").toString());
            }
        }
        config.put("im.push.worker.channel.cloud.auth-url", "http://127.0.0.1:" + sims.get("cloud").port() + "/token");
        config.put("im.push.worker.channel.vendor_a.auth-url",
                "http://127.0.0.1:" + sims.get("vendor_a").port() + "/oauth2/v3/token");
        return config;
    }

    @Override
    public void stop() {
        // shared by every test class of this JVM
    }
}
