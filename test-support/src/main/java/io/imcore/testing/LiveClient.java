package io.imcore.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A device's live connection in tests: the JDK's WebSocket client speaking the JSON frames of
 * docs/live-protocol.md. Frames received are queued; {@link #closed} completes with the close code.
 */
public final class LiveClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
    public final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final WebSocket socket;

    private LiveClient(URI uri) {
        this.socket = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(uri, new Listener()).join();
    }

    /** Connects to ws://host:port/ws. */
    public static LiveClient connect(String host, int port) {
        return new LiveClient(URI.create("ws://" + host + ":" + port + "/ws"));
    }

    /** Connects and authenticates; fails unless the server answers code 200. */
    public static LiveClient authenticated(String host, int port, String appId, String token, Integer deviceSn) {
        LiveClient client = connect(host, port);
        JsonNode answer = client.auth(appId, token, deviceSn);
        if (answer == null || answer.path("code").asInt() != 200) {
            client.close();
            throw new AssertionError("live auth failed: " + answer);
        }
        return client;
    }

    /** Sends the auth frame and returns the server's auth answer (null on timeout). */
    public JsonNode auth(String appId, String token, Integer deviceSn) {
        send("{\"type\":\"auth\",\"app_id\":\"" + appId + "\",\"token\":\"" + token + "\""
                + (deviceSn == null ? "" : ",\"device_sn\":" + deviceSn) + "}");
        return next("auth", Duration.ofSeconds(10));
    }

    public void send(String frame) {
        socket.sendText(frame, true).join();
    }

    /** The next frame of the given type (frames of other types are skipped), or null after the timeout. */
    public JsonNode next(String type, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                JsonNode frame = frames.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (frame == null || type.equals(frame.path("type").asText())) {
                    return frame;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").exceptionally(e -> null);
        }
        socket.abort();
    }

    private final class Listener implements WebSocket.Listener {

        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    frames.add(JSON.readTree(partial.toString()));
                } catch (Exception e) {
                    frames.add(JSON.createObjectNode().put("type", "unparseable").put("text", partial.toString()));
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete(-1);
        }
    }
}
