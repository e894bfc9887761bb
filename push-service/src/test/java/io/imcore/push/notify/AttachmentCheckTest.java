package io.imcore.push.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AttachmentCheckTest {

    private static final int MAX_BYTES = 1_048_576;
    private static final Duration SHORT_TIMEOUT = Duration.ofMillis(500);

    private static HttpServer server;
    private static ExecutorService handlers;
    private static final Queue<String> requests = new ConcurrentLinkedQueue<>();
    private static final CountDownLatch release = new CountDownLatch(1);

    private final AttachmentCheck check = new AttachmentCheck(Duration.ofSeconds(10), MAX_BYTES, true);
    private final AttachmentCheck quickCheck = new AttachmentCheck(SHORT_TIMEOUT, MAX_BYTES, true);

    @BeforeAll
    static void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "image-server");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(handlers);
        for (boolean headAllowed : new boolean[] {true, false}) {
            String prefix = headAllowed ? "" : "/no-head";
            image(prefix + "/length/small.png", 100, true, headAllowed);
            image(prefix + "/length/exact.png", MAX_BYTES, true, headAllowed);
            image(prefix + "/length/large.png", MAX_BYTES + 1, true, headAllowed);
            image(prefix + "/chunked/small.png", 100, false, headAllowed);
            image(prefix + "/chunked/exact.png", MAX_BYTES, false, headAllowed);
            image(prefix + "/chunked/endless.png", Long.MAX_VALUE, false, headAllowed);
        }
        server.createContext("/missing.png", exchange -> {
            requests.add(exchange.getRequestMethod() + " /missing.png");
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.createContext("/moved.png", exchange -> {
            exchange.getResponseHeaders().set("Location", "/length/small.png");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/loop.png", exchange -> {
            exchange.getResponseHeaders().set("Location", "/loop.png");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        server.createContext("/stalled.png", exchange -> {
            try {
                if (exchange.getRequestMethod().equals("HEAD")) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                exchange.sendResponseHeaders(200, 0);
                exchange.getResponseBody().write(new byte[10]);
                exchange.getResponseBody().flush();
                release.await();
            } catch (IOException | InterruptedException e) {
                // the client gave up: that is the point
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    @AfterAll
    static void stopServer() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @BeforeEach
    void forgetRequests() {
        requests.clear();
    }

    @Test
    void acceptsASmallImageFromHeadAlone() {
        check.check(url("/length/small.png"));
        assertEquals(List.of("HEAD /length/small.png"), List.copyOf(requests));
    }

    @Test
    void acceptsSmallImagesByCountingTheBody() {
        check.check(url("/chunked/small.png"));
        assertEquals(List.of("HEAD /chunked/small.png", "GET /chunked/small.png"), List.copyOf(requests));
        check.check(url("/no-head/length/small.png"));
        check.check(url("/no-head/chunked/small.png"));
    }

    @Test
    void followsRedirects() {
        check.check(url("/moved.png"));
    }

    @Test
    void givesUpOnEndlessRedirects() {
        ApiException loop = assertThrows(ApiException.class, () -> check.check(url("/loop.png")));
        assertEquals(ErrorCode.PUSH_IMAGE_UNREACHABLE, loop.errorCode());
        assertTrue(loop.getMessage().contains("redirects"), loop.getMessage());
    }

    @Test
    void refusesNonPublicAddressesWithoutContactingThemUnlessAllowed() {
        AttachmentCheck strict = new AttachmentCheck(Duration.ofSeconds(10), MAX_BYTES, false);
        for (String url : List.of(url("/length/small.png"), "http://10.1.2.3/a.png", "http://169.254.169.254/a.png",
                "http://192.168.0.1/a.png", "http://[::1]/a.png", "http://localhost/a.png")) {
            ApiException refused = assertThrows(ApiException.class, () -> strict.check(url), url);
            assertEquals(ErrorCode.PUSH_IMAGE_UNREACHABLE, refused.errorCode(), url);
            assertTrue(refused.getMessage().contains("not a public address"), refused.getMessage());
        }
        assertEquals(List.of(), List.copyOf(requests), "nothing was fetched");
    }

    @Test
    void refusesImagesOfTheLimitAndMore() {
        for (String path : List.of("/length/exact.png", "/length/large.png", "/chunked/exact.png",
                "/chunked/endless.png", "/no-head/length/exact.png", "/no-head/length/large.png",
                "/no-head/chunked/exact.png", "/no-head/chunked/endless.png")) {
            assertFails(ErrorCode.PUSH_IMAGE_TOO_LARGE, check, url(path));
        }
    }

    @Test
    void refusesWhatCannotBeDownloaded() throws IOException {
        assertFails(ErrorCode.PUSH_IMAGE_UNREACHABLE, check, url("/missing.png"));
        assertEquals(List.of("HEAD /missing.png", "GET /missing.png"), List.copyOf(requests));
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        assertFails(ErrorCode.PUSH_IMAGE_UNREACHABLE, check, "http://127.0.0.1:" + closedPort + "/a.png");
        for (String notHttp : List.of("ftp://127.0.0.1/a.png", "file:///a.png", "/a.png", "http://h/a b.png")) {
            assertFails(ErrorCode.PUSH_IMAGE_UNREACHABLE, check, notHttp);
        }
    }

    @Test
    void givesUpOnAServerThatNeverAnswers() throws IOException {
        // the backlog accepts the connection; nobody ever reads the request
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            assertGivesUpInTime("http://127.0.0.1:" + silent.getLocalPort() + "/a.png");
        }
    }

    @Test
    void givesUpOnABodyThatStalls() {
        assertGivesUpInTime(url("/stalled.png"));
    }

    private void assertGivesUpInTime(String url) {
        long start = System.nanoTime();
        assertFails(ErrorCode.PUSH_IMAGE_UNREACHABLE, quickCheck, url);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(elapsed.compareTo(SHORT_TIMEOUT.minusMillis(50)) >= 0, "waited for the timeout: " + elapsed);
        assertTrue(elapsed.compareTo(SHORT_TIMEOUT.plusMillis(1000)) < 0, "gave up at the timeout: " + elapsed);
    }

    private static void assertFails(ErrorCode code, AttachmentCheck check, String url) {
        ApiException error = assertThrows(ApiException.class, () -> check.check(url), url);
        assertEquals(code, error.errorCode(), url + ": " + error.getMessage());
        assertTrue(error.getMessage().startsWith("message.attachment_url: "), error.getMessage());
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Serves {@code size} bytes with a Content-Length or chunked; HEAD answers 405 unless allowed. */
    private static void image(String path, long size, boolean contentLength, boolean headAllowed) {
        server.createContext(path, exchange -> {
            requests.add(exchange.getRequestMethod() + " " + path);
            try {
                exchange.getResponseHeaders().set("Content-Type", "image/png");
                if (!exchange.getRequestMethod().equals("HEAD")) {
                    exchange.sendResponseHeaders(200, contentLength ? size : 0);
                    writeBytes(exchange.getResponseBody(), size);
                } else if (headAllowed) {
                    if (contentLength) {
                        exchange.getResponseHeaders().set("Content-Length", String.valueOf(size));
                    }
                    exchange.sendResponseHeaders(200, -1);
                } else {
                    exchange.sendResponseHeaders(405, -1);
                }
            } catch (IOException e) {
                // the client stopped reading once it had enough
            } finally {
                exchange.close();
            }
        });
    }

    private static void writeBytes(OutputStream body, long size) throws IOException {
        byte[] chunk = new byte[64 * 1024];
        for (long left = size; left > 0; left -= chunk.length) {
            body.write(chunk, 0, (int) Math.min(chunk.length, left));
        }
    }
}
