// One device's live connection on message-service's /ws: open, send the auth frame, complete `authed` on
// {"type":"auth","code":200}; counts pongs; hands every other frame (message, ack, ...) to `frames` when set.
// Uses java.net.http's WebSocket.

import java.io.IOException;
import java.net.URI;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

final class LiveDevice implements WebSocket.Listener {
    final String authFrame;
    final CompletableFuture<Void> authed = new CompletableFuture<>();
    final StringBuilder text = new StringBuilder();
    volatile WebSocket socket;
    volatile boolean closed;
    volatile String closeReason;
    final AtomicInteger pongs = new AtomicInteger();
    /** Gets (this device, frame) for each frame other than auth and pong, on the socket's listener thread. */
    volatile BiConsumer<LiveDevice, String> frames;
    /** Frames this device sends after auth: java.net.http allows one send in flight, so each waits for the last. */
    private CompletableFuture<WebSocket> sending;

    /** Device deviceSn of the token's user. */
    LiveDevice(String token, int deviceSn) {
        this.authFrame = "{\"type\":\"auth\",\"app_id\":\"" + Api.appId + "\",\"token\":\"" + token
                + "\",\"device_sn\":" + deviceSn + "}";
    }

    /** The gateway's WebSocket address. */
    static URI uri() {
        return URI.create(Api.baseUrl.replaceFirst("^http", "ws") + "/ws");
    }

    /** A message-service replica's own WebSocket address: its port on the gateway's host, not through the gateway. */
    static URI uri(int port) {
        return URI.create("ws://" + URI.create(Api.baseUrl).getHost() + ":" + port + "/ws");
    }

    /** Sends a text frame after the ones sent before it (an ack, a ping). */
    synchronized CompletableFuture<WebSocket> send(String frame) {
        WebSocket ws = socket;
        sending = sending == null ? ws.sendText(frame, true) : sending.thenCompose(w -> w.sendText(frame, true));
        return sending;
    }

    @Override
    public void onOpen(WebSocket ws) {
        socket = ws;
        ws.request(1);
        ws.sendText(authFrame, true);
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
        text.append(data);
        if (last) {
            String frame = text.toString();
            text.setLength(0);
            String type = Json.field(frame, "type");
            if ("auth".equals(type)) {
                if (Json.code(frame) == 200) {
                    authed.complete(null);
                } else {
                    authed.completeExceptionally(new IOException("auth answered " + Json.abbreviate(frame)));
                }
            } else if ("pong".equals(type)) {
                pongs.incrementAndGet();
            } else if (frames != null) {
                try {
                    frames.accept(this, frame);
                } catch (RuntimeException e) {
                    Results.noteError("frame handler: " + e);
                }
            }
        }
        ws.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
        closed = true;
        closeReason = status + " " + reason;
        authed.completeExceptionally(new IOException("closed: " + closeReason));
        return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
        closed = true;
        closeReason = "error " + error;
        authed.completeExceptionally(error);
    }

    /** Open and not closed: the connection may still be in use. */
    boolean open() {
        return socket != null && !closed;
    }
}
