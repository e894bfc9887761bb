package io.imcore.simulators.registry;

import io.imcore.simulators.ProviderSimulator;
import io.imcore.simulators.apns.ApnsSimulator;
import io.imcore.simulators.fcm.FcmSimulator;
import io.imcore.simulators.huawei.HuaweiSimulator;
import io.imcore.simulators.meizu.MeizuSimulator;
import io.imcore.simulators.oppo.OppoSimulator;
import io.imcore.simulators.vivo.VivoSimulator;
import io.imcore.simulators.webhook.WebhookReceiver;
import io.imcore.simulators.xiaomi.XiaomiSimulator;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The seven provider simulators, started together: in a test JVM ({@link #start}) or as the local stack's process
 * ({@link #main}: {@code java -jar push-simulators.jar <work dir> [first port]}, ports first..first+6 in the order
 * of {@link #all()}, and first+7 for the demo app's webhook receiver ({@link WebhookReceiver}); it writes
 * {@code <work dir>/ports.properties} and then prints "simulators started").
 */
public final class Simulators implements AutoCloseable {

    private final Vertx vertx;
    private final Map<String, ProviderSimulator> byChannel;

    private Simulators(Vertx vertx, Map<String, ProviderSimulator> byChannel) {
        this.vertx = vertx;
        this.byChannel = byChannel;
    }

    /** One of each, in a fixed order (the local stack's port order). */
    public static List<ProviderSimulator> all() {
        return List.of(new ApnsSimulator(), new FcmSimulator(), new HuaweiSimulator(), new XiaomiSimulator(),
                new OppoSimulator(), new VivoSimulator(), new MeizuSimulator());
    }

    /** Starts all seven on 127.0.0.1, on free ports when {@code firstPort} is 0. */
    public static Simulators start(Path workDir, int firstPort) throws Exception {
        Files.createDirectories(workDir);
        Vertx vertx = Vertx.vertx();
        Map<String, ProviderSimulator> started = new LinkedHashMap<>();
        int next = firstPort;
        for (ProviderSimulator simulator : all()) {
            simulator.start(vertx, "127.0.0.1", next, workDir).toCompletionStage().toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            started.put(simulator.channel(), simulator);
            next = firstPort == 0 ? 0 : next + 1;
        }
        return new Simulators(vertx, started);
    }

    /** The simulator of a channel, by its wire name (ios, cloud, vendor_a .. vendor_e). */
    public ProviderSimulator get(String channel) {
        ProviderSimulator simulator = byChannel.get(channel);
        if (simulator == null) {
            throw new IllegalArgumentException("no simulator for channel " + channel);
        }
        return simulator;
    }

    public Map<String, ProviderSimulator> byChannel() {
        return byChannel;
    }

    public void resetAll() {
        byChannel.values().forEach(ProviderSimulator::reset);
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(Duration.ofSeconds(10).toSeconds(),
                TimeUnit.SECONDS);
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: java -jar push-simulators.jar <work dir> [first port]");
            System.exit(2);
        }
        Path workDir = Path.of(args[0]);
        int firstPort = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        Simulators simulators = start(workDir, firstPort);
        StringBuilder ports = new StringBuilder();
        simulators.byChannel.forEach((channel, s) -> ports.append(channel).append('=').append(s.port()).append('\n'));
        // the demo app's webhook endpoint, after the seven providers
        WebhookReceiver webhooks = new WebhookReceiver();
        int webhooksPort = webhooks.start(simulators.vertx, "127.0.0.1", firstPort == 0 ? 0 : firstPort + all().size())
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        ports.append("webhooks=").append(webhooksPort).append('\n');
        Files.writeString(workDir.resolve("ports.properties"), ports);
        System.out.print(ports);
        System.out.println("simulators started");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                simulators.close();
            } catch (Exception ignored) {
                // exiting anyway
            }
        }));
    }
}
