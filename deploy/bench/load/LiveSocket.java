// send-live's and ws-idle's device connection: a minimal WebSocket client (RFC 6455) over a plain blocking socket,
// one virtual reader thread per connection. It upgrades /ws, sends the auth frame, completes `authed` on
// {"type":"auth","code":200}, answers pings, and hands every other text frame to its handler with the time the frame
// was read; sendText writes a masked frame from any thread. Why not java.net.http's WebSocket (LiveDevice): it reads
// every connection on one selector thread, which beside 100 busy sender threads on the 2 cores fell seconds behind
// at ~1,000 frames/s (megabytes waiting in the sockets' receive queues, `ss -tn`), and opened connections at ~290/s:
// the phases timed the generator rather than the service. Platform reader threads opened ~600/s, virtual ones ~900/s.

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

final class LiveSocket {

    /** A text frame other than auth, with System.nanoTime() of its arrival; runs on the connection's reader. */
    interface Handler {
        void onText(LiveSocket socket, String frame, long arrivedNanos);
    }

    final CompletableFuture<Void> authed = new CompletableFuture<>();
    volatile boolean closed;
    volatile String closeReason;
    private boolean closeSent; // under this object's lock, as every write
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Handler handler;
    private final Thread reader;

    /** Connects to ws://HOST:PORT/PATH, upgrades, sends authFrame and starts reading (thread `name`). */
    LiveSocket(URI uri, String authFrame, Handler handler, String name) throws IOException {
        this.handler = handler;
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
        socket.setSoTimeout(10_000); // the upgrade's answer; no timeout once upgraded
        in = new BufferedInputStream(socket.getInputStream(), 65536);
        out = socket.getOutputStream();
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String key = Base64.getEncoder().encodeToString(nonce);
        out.write(("GET " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead();
        if (!head.startsWith("HTTP/1.1 101") || !head.contains(accept(key))) {
            socket.close();
            throw new IOException("no WebSocket upgrade: " + head.lines().findFirst().orElse(""));
        }
        socket.setSoTimeout(0);
        sendText(authFrame);
        reader = Thread.ofVirtual().name(name).start(this::read);
    }

    /** Writes one masked text frame (a client's frames are masked); frames of several threads do not interleave. */
    synchronized void sendText(String text) throws IOException {
        byte[] payload = text.getBytes(StandardCharsets.UTF_8);
        write(0x1, payload);
    }

    /** Sends a close frame (1000), waits up to 5 s for the server's and the end of the connection, then closes. */
    void close() {
        try {
            synchronized (this) {
                if (!closeSent) {
                    closeSent = true;
                    write(0x8, new byte[] {(byte) 0x03, (byte) 0xE8});
                }
            }
            reader.join(5_000);
        } catch (Exception e) {
            // closing anyway
        }
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private void write(int opcode, byte[] payload) throws IOException {
        int n = payload.length;
        int headLength = n < 126 ? 2 : n < 65536 ? 4 : 10;
        byte[] frame = new byte[headLength + 4 + n];
        frame[0] = (byte) (0x80 | opcode);
        if (n < 126) {
            frame[1] = (byte) (0x80 | n);
        } else if (n < 65536) {
            frame[1] = (byte) (0x80 | 126);
            frame[2] = (byte) (n >>> 8);
            frame[3] = (byte) n;
        } else {
            frame[1] = (byte) (0x80 | 127);
            for (int i = 0; i < 8; i++) {
                frame[2 + i] = (byte) ((long) n >>> (56 - 8 * i));
            }
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        System.arraycopy(mask, 0, frame, headLength, 4);
        for (int i = 0; i < n; i++) {
            frame[headLength + 4 + i] = (byte) (payload[i] ^ mask[i & 3]);
        }
        out.write(frame);
        out.flush();
    }

    private void read() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try {
            while (true) {
                int b0 = in.read();
                int b1 = in.read();
                if (b0 < 0 || b1 < 0) {
                    throw new EOFException("connection ended");
                }
                long n = b1 & 0x7F;
                if (n == 126) {
                    n = (readByte() << 8) | readByte();
                } else if (n == 127) {
                    n = 0;
                    for (int i = 0; i < 8; i++) {
                        n = (n << 8) | readByte();
                    }
                }
                byte[] mask = (b1 & 0x80) != 0 ? in.readNBytes(4) : null;
                byte[] payload = in.readNBytes((int) n);
                if (payload.length != n) {
                    throw new EOFException("connection ended in a frame");
                }
                if (mask != null) {
                    for (int i = 0; i < payload.length; i++) {
                        payload[i] ^= mask[i & 3];
                    }
                }
                int opcode = b0 & 0x0F;
                switch (opcode) {
                    case 0x0, 0x1 -> {
                        text.write(payload);
                        if ((b0 & 0x80) != 0) {
                            long arrived = System.nanoTime();
                            String frame = text.toString(StandardCharsets.UTF_8);
                            text.reset();
                            deliver(frame, arrived);
                        }
                    }
                    case 0x8 -> {
                        int status = payload.length >= 2 ? ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF) : 1005;
                        String reason = payload.length > 2
                                ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8) : "";
                        ended(status + " " + reason);
                        synchronized (this) {
                            if (!closeSent) { // the server closed first: the answer
                                closeSent = true;
                                write(0x8, payload.length >= 2 ? new byte[] {payload[0], payload[1]} : new byte[0]);
                            }
                        }
                        return;
                    }
                    case 0x9 -> {
                        synchronized (this) {
                            write(0xA, payload);
                        }
                    }
                    default -> { } // pong, binary: not expected, ignored
                }
            }
        } catch (Exception e) {
            ended("error " + e);
        }
    }

    private void deliver(String frame, long arrived) {
        if ("auth".equals(Json.field(frame, "type")) && !authed.isDone()) {
            if (Json.code(frame) == 200) {
                authed.complete(null);
            } else {
                authed.completeExceptionally(new IOException("auth answered " + Json.abbreviate(frame)));
            }
            return;
        }
        try {
            handler.onText(this, frame, arrived);
        } catch (RuntimeException e) {
            Results.noteError("frame handler: " + e);
        }
    }

    private void ended(String reason) {
        if (closeReason == null) {
            closeReason = reason;
        }
        closed = true;
        authed.completeExceptionally(new IOException("closed: " + reason));
    }

    private long readByte() throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection ended in a frame header");
        }
        return b;
    }

    /** The upgrade answer's head, up to the empty line. */
    private String readHead() throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection ended in the upgrade answer: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    /** Sec-WebSocket-Accept for a key (RFC 6455 4.2.2). */
    private static String accept(String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1")
                    .digest((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
