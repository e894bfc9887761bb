// client=raw, the load loops' default client: a minimal HTTP/1.1 client over plain sockets. Worker w owns
// connection w (opened on first use, reopened when the server closes it, e.g. nginx after keepalive_requests);
// requests are serialised once by prepare; answers are framed by Content-Length or chunked encoding.

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

final class RawHttpClient implements LoadClient {
    final String host;
    final int port;
    final String hostHeader;
    final Connection[] connections;

    RawHttpClient(URI base, int workers) {
        host = base.getHost();
        port = base.getPort() > 0 ? base.getPort() : 80;
        hostHeader = base.getPort() > 0 ? host + ":" + port : host;
        connections = new Connection[workers];
    }

    @Override
    public Object prepare(String method, String path, String token, String json) {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader).append("\r\napp_id: ").append(Api.appId).append("\r\n");
        if (token != null) {
            head.append("access-token: ").append(token).append("\r\n");
        }
        if (json != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        byte[] h = head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
        byte[] all = Arrays.copyOf(h, h.length + body.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    @Override
    public Reply send(int worker, Object prepared) throws IOException {
        Connection c = connections[worker];
        if (c == null || c.closed) {
            c = connections[worker] = new Connection(host, port);
        } else if (c.reused) {
            try {
                return c.exchange((byte[]) prepared);
            } catch (Connection.ClosedBeforeAnswer e) {
                // the server closed the idle connection before reading this request: resend on a new one
                c = connections[worker] = new Connection(host, port);
            }
        }
        return c.exchange((byte[]) prepared);
    }

    /** One persistent connection and its read buffer. */
    static final class Connection {

        /** The connection ended before any byte of the answer: the request was not processed. */
        static final class ClosedBeforeAnswer extends IOException {
            ClosedBeforeAnswer() {
                super("connection closed before the answer");
            }
        }

        final Socket socket;
        final InputStream in;
        final OutputStream out;
        byte[] buf = new byte[16384];
        int pos;
        int lim;
        boolean closed;
        boolean reused;

        Connection(String host, int port) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout((int) Api.REQUEST_TIMEOUT.toMillis());
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        Reply exchange(byte[] request) throws IOException {
            try {
                out.write(request);
                out.flush();
                Reply reply = readReply();
                reused = true;
                return reply;
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        void close() {
            closed = true;
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        /** Reads more bytes into the buffer (compacting or growing it); false at the end of the stream. */
        boolean fill() throws IOException {
            if (pos > 0 && pos == lim) {
                pos = lim = 0;
            }
            if (lim == buf.length) {
                if (pos > 0) {
                    System.arraycopy(buf, pos, buf, 0, lim - pos);
                    lim -= pos;
                    pos = 0;
                } else {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            int n = in.read(buf, lim, buf.length - lim);
            if (n < 0) {
                return false;
            }
            lim += n;
            return true;
        }

        /** The next line without CRLF, as ISO-8859-1. */
        String line(boolean first) throws IOException {
            while (true) {
                for (int i = pos; i + 1 < lim; i++) {
                    if (buf[i] == '\r' && buf[i + 1] == '\n') {
                        String line = new String(buf, pos, i - pos, StandardCharsets.ISO_8859_1);
                        pos = i + 2;
                        return line;
                    }
                }
                if (!fill()) {
                    if (first && lim == pos) {
                        throw new ClosedBeforeAnswer();
                    }
                    throw new IOException("connection closed in the middle of an answer");
                }
            }
        }

        byte[] bytes(int n) throws IOException {
            while (lim - pos < n) {
                if (!fill()) {
                    throw new IOException("connection closed in the middle of a body");
                }
            }
            byte[] b = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return b;
        }

        Reply readReply() throws IOException {
            String status = line(true);
            if (!status.startsWith("HTTP/1.") || status.length() < 12) {
                throw new IOException("bad status line: " + status);
            }
            int code = Integer.parseInt(status.substring(9, 12));
            long length = -1;
            boolean chunked = false;
            boolean close = status.startsWith("HTTP/1.0");
            String header;
            while (!(header = line(false)).isEmpty()) {
                int colon = header.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = header.substring(0, colon).trim();
                String value = header.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("content-length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("transfer-encoding")) {
                    chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                } else if (name.equalsIgnoreCase("connection")) {
                    close = value.equalsIgnoreCase("close");
                }
            }
            String body;
            if (chunked) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                while (true) {
                    String size = line(false);
                    int semi = size.indexOf(';');
                    int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                    if (n == 0) {
                        while (!line(false).isEmpty()) {
                            // trailers
                        }
                        break;
                    }
                    all.write(bytes(n));
                    line(false);
                }
                body = all.toString(StandardCharsets.UTF_8);
            } else if (length >= 0) {
                body = new String(bytes((int) length), StandardCharsets.UTF_8);
            } else {
                throw new IOException("answer without Content-Length or chunked encoding");
            }
            if (close) {
                close();
            }
            return new Reply(code, body);
        }
    }
}
