package io.imcore.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * One real S3 server per test JVM: s3proxy with its filesystem backend, as a child process from its own jar (its
 * libraries would clash with Quarkus' in this JVM). Started on first use, with one bucket, stopped (and its files
 * deleted) when the JVM exits.
 */
public final class TestObjectStore {

    public static final String BUCKET = "imcore-test-files";
    public static final String ACCESS_KEY = "test-identity";
    public static final String SECRET_KEY = "test-credential";
    private static final long START_TIMEOUT_MS = 60_000;

    private static TestObjectStore instance;

    private final Path directory;
    private final Process process;
    private final int port;

    private TestObjectStore() throws IOException, InterruptedException {
        directory = Files.createTempDirectory("imcore-test-s3");
        Path data = Files.createDirectories(directory.resolve("data"));
        Files.createDirectories(data.resolve(BUCKET)); // a bucket of the filesystem backend is a directory
        port = freePort();
        Path properties = directory.resolve("s3proxy.conf");
        Files.writeString(properties, String.join("\n",
                "s3proxy.endpoint=http://127.0.0.1:" + port,
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                // the signed x-amz-checksum-sha256 of upload URLs: AWS S3 checks it, s3proxy does not know it
                "s3proxy.ignore-unknown-headers=true",
                "jclouds.provider=filesystem",
                "jclouds.filesystem.basedir=" + data, ""));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-jar", jar(), "--properties",
                properties.toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("s3proxy.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "test-object-store-stop"));
        awaitListening();
    }

    public static synchronized TestObjectStore get() {
        if (instance == null) {
            try {
                instance = new TestObjectStore();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the test object store", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the test object store", e);
            }
        }
        return instance;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The objects of the bucket as files (the filesystem backend's layout), for tests that look behind the API. */
    public Path bucketDirectory() {
        return directory.resolve("data").resolve(BUCKET);
    }

    private static String jar() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = TestObjectStore.class.getResourceAsStream("/imcore-object-store.properties")) {
            if (in == null) {
                throw new IOException("imcore-object-store.properties missing from test-support");
            }
            properties.load(in);
        }
        String jar = properties.getProperty("s3proxy.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IOException("s3proxy jar not found at " + jar + " (build test-support with Maven)");
        }
        return jar;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("s3proxy exited with " + process.exitValue() + ": "
                        + Files.readString(directory.resolve("s3proxy.log")));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new IOException("s3proxy did not listen on " + port + " within " + START_TIMEOUT_MS + " ms");
    }

    private void close() {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is no reason to fail the run
        }
    }
}
