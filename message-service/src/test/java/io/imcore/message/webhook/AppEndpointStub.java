package io.imcore.message.webhook;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** An app's endpoint in a test: records every request and answers as the test says. */
public final class AppEndpointStub implements AutoCloseable {

    /** One request as it arrived. */
    public record Received(Map<String, List<String>> headers, String body) {

        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null ? null : values.get(0);
        }
    }

    /** What the endpoint answers; {@code delayMillis} before answering. */
    public record Answer(int status, String body, long delayMillis) {

        public static Answer ok(String body) {
            return new Answer(200, body, 0);
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private volatile Function<Received, Answer> answers = request -> Answer.ok("{}");

    public AppEndpointStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            Received request;
            try (var in = exchange.getRequestBody()) {
                // the JDK server's header names are capitalized: the tests look them up in lower case
                Map<String, List<String>> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                headers.putAll(exchange.getRequestHeaders());
                request = new Received(headers, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            received.add(request);
            Answer answer = answers.apply(request);
            try {
                Thread.sleep(answer.delayMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (IOException callerGone) {
                // the caller timed out and closed the connection
            }
        });
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
    }

    public void answer(Function<Received, Answer> answers) {
        this.answers = answers;
    }

    /** The next request, or null after {@code seconds}. */
    public Received next(int seconds) throws InterruptedException {
        return received.poll(seconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
