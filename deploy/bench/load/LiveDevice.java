// One device's live connection on message-service's /ws: open, send the auth frame, complete `authed` on
// {"type":"auth","code":200}; counts pongs. Uses java.net.http's WebSocket.

import java.io.IOException;
import java.net.URI;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

final class LiveDevice implements WebSocket.Listener {
    final String authFrame;
    final CompletableFuture<Void> authed = new CompletableFuture<>();
    final StringBuilder text = new StringBuilder();
    volatile WebSocket socket;
    volatile boolean closed;
    volatile String closeReason;
    final AtomicInteger pongs = new AtomicInteger();

    /** Device deviceSn of the token's user. */
    LiveDevice(String token, int deviceSn) {
        this.authFrame = authFrame(token, deviceSn);
    }

    /** The auth frame of device deviceSn of the token's user (LiveSocket sends it too). */
    static String authFrame(String token, int deviceSn) {
        return "{\"type\":\"auth\",\"app_id\":\"" + Api.appId + "\",\"token\":\"" + token
                + "\",\"device_sn\":" + deviceSn + "}";
    }

    /** The gateway's WebSocket address. */
    static URI uri() {
        return URI.create(Api.baseUrl.replaceFirst("^http", "ws") + "/ws");
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
