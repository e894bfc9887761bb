package io.imcore.testing;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A process of the module's packaged service ({@code target/quarkus-app/quarkus-run.jar}) for integration tests
 * that need several replicas or a real crash. Its log goes to {@code target/it-<name>.log}.
 */
public record ServiceProcess(String name, int port, Process process) {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** Starts the service with the shared infrastructure's config plus {@code extra}; waits until it is ready. */
    public static ServiceProcess start(String name, Map<String, String> extra) throws IOException, InterruptedException {
        return start(name, Path.of("."), extra);
    }

    /**
     * Starts the packaged service of another module ({@code moduleDir}, e.g. {@code ../auth-service}), which the
     * reactor has packaged before this module's integration tests run.
     */
    public static ServiceProcess start(String name, Path moduleDir, Map<String, String> extra)
            throws IOException, InterruptedException {
        return start(name, moduleDir, extra, freePort());
    }

    /** A port free now: for a service another one must be told about before it starts. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** {@link #start(String, Path, Map)} on a port chosen by the caller ({@link #freePort()}). */
    public static ServiceProcess start(String name, Path moduleDir, Map<String, String> extra, int port)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
        SharedInfrastructure.get().quarkusConfig().forEach((key, value) -> command.add("-D" + key + "=" + value));
        extra.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-jar", moduleDir.resolve("target/quarkus-app/quarkus-run.jar").toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(new File("target/it-" + name + ".log")).start();
        // never leave a process behind, whatever ends this JVM
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        ServiceProcess service = new ServiceProcess(name, port, process);
        service.awaitReady();
        return service;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** SIGKILL: no shutdown hook, no graceful stop, as a node failure. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 90_000;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited; see target/it-" + name + ".log");
            }
            try {
                HttpResponse<String> ready = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new AssertionError(name + " not ready in 90 s; see target/it-" + name + ".log");
    }
}
