// Load generator of the message-service benchmark (deploy/bench/message.sh runs it; docs/benchmarks.md).
// JDK 17 only, run with the source launcher:  java deploy/bench/MessageLoad.java PHASE [key=value ...]
//
// Environment: BASE_URL, APP_ID, ADMIN_TOKEN (as in .local/env). Options (key=value, or the environment variable
// in capitals): local_dir (the stack's LOCAL_DIR, .local), duration (20 s), warmup (3 s, run but not measured),
// c (concurrency), state (<local_dir>/bench/message-state.properties), pairs (100), group_size (500), seed (20), client (raw or jdk).
// Phases; each load phase prints RESULT|name|ops/s|p50 ms|p99 ms|errors|measured operations|notes and
// CPU|phase|window s|process=cores|... (CPU time of the stack's processes, this generator, the rest, idle):
//   setup        registers users, fetches tokens, creates the group, seeds conversations; writes the state file
//                (reused on the next run while its tokens and group still work; force=1 makes a new one)
//   send-closed  1:1 text sends, c senders (default 100), each to its own peer, closed loop
//   send-rate    1:1 text sends at a fixed rate (rate=1000/s) from a fixed pool of workers and connections
//                (workers=100), open loop; latency counts from the scheduled send time (no coordinated omission)
//   group        type 2 sends to the group of group_size members, c senders who are members (default 10)
//   conversation GET /message/conversation?opposite_id=PEER&limit=20, c readers (default 64), full pages of 20
//   auth-read    GET /user/device/list (auth-service), c clients (default 100): the authenticated baseline
//   noop         GET /bench-noop answered by nginx itself (code 10002), c clients (default 100)
//   ws-idle      conns (2000) authenticated WebSockets on /ws (pairs users x devices), held hold (20) s, with
//                message-service's VmRSS before and while they are open (RSS|... lines)
// Push phases (deploy/bench/push.sh runs them against an app with push on; ADMIN_TOKEN is that app's):
//   push-accept  n (300) POST /push/notify, audience all, c (4) clients, after warmup_n (20) uncounted calls;
//                each task is scheduled a day ahead (show_begin_time), so none is expanded (push.sh expires them)
//   push-expand  one POST /push/notify, audience all, due at once; polls POST /push/task/detail every 100 ms
//                until the task leaves expansion (dispatching or done), samples push-service's VmRSS every 200 ms,
//                and meanwhile (after accept_delay s) runs push-accept's load (accept_n, accept_c): accept latency
//                while the expansion runs. Prints EXPAND|..., RSS|..., PROGRESS|... and CPU|... lines
// Fault suite phases (deploy/chaos/run.sh runs them; docs/reliability.md):
//   chaos-send   1:1 sends at rate (20/s) for duration s (or until a file exists), open loop, each with its own
//                timeout; every answer (or non-answer) logged to out, one line per send, tagged so chaos-verify
//                can find the messages
//   chaos-verify every send of out answered 200 must be readable in its conversation (no acknowledged loss)
// Every answer is HTTP 200 with the envelope: an operation counts as an error unless its code is the expected one.
// Throughput counts successes; latencies (successes only) are kept one by one and percentiles are exact
// (nearest rank). The load phases use client=raw by default: a fixed pool of persistent HTTP/1.1 connections,
// one per worker, on plain sockets; client=jdk uses java.net.http.HttpClient instead (see loadClient).
// setup and ws-idle use java.net.http.HttpClient and its WebSocket.

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class MessageLoad {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    static final String PASSWORD = "bench-pass-1";

    static Map<String, String> options = new HashMap<>();
    static String baseUrl;
    static String appId;
    static HttpClient http;
    static String phase;

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: java deploy/bench/MessageLoad.java setup|send-closed|send-rate|group|"
                    + "conversation|auth-read|noop|ws-idle|push-accept|push-expand|chaos-send|chaos-verify "
                    + "[key=value ...]");
            System.exit(2);
        }
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("option must be key=value: " + args[i]);
            }
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        baseUrl = required("BASE_URL").replaceAll("/+$", "");
        appId = required("APP_ID");
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        phase = args[0];
        switch (args[0]) {
            case "setup" -> setup();
            case "send-closed" -> sendClosed();
            case "send-rate" -> sendRate();
            case "group" -> group();
            case "conversation", "read" -> read();
            case "auth-read" -> authRead();
            case "noop" -> noop();
            case "ws-idle" -> wsIdle();
            case "push-accept" -> pushAccept();
            case "push-expand" -> pushExpand();
            case "chaos-send" -> chaosSend();
            case "chaos-verify" -> chaosVerify();
            default -> {
                System.err.println("unknown phase " + args[0]);
                System.exit(2);
            }
        }
        System.exit(0);
    }

    // ---- options -------------------------------------------------------------------------------------------

    static String option(String key, String fallback) {
        String value = options.get(key);
        if (value == null) {
            value = System.getenv(key.toUpperCase(Locale.ROOT));
        }
        return value == null || value.isEmpty() ? fallback : value;
    }

    static String required(String envName) {
        String value = System.getenv(envName);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(envName + " is not set (source .local/env)");
        }
        return value;
    }

    static int intOption(String key, int fallback) {
        return Integer.parseInt(option(key, String.valueOf(fallback)));
    }

    static double doubleOption(String key, double fallback) {
        return Double.parseDouble(option(key, String.valueOf(fallback)));
    }

    /** The local stack's state directory: LOCAL_DIR as deploy/local/lib.sh reads it, else .local. */
    static Path localDir() {
        return Path.of(option("local_dir", ".local"));
    }

    static Path statePath() {
        return Path.of(option("state", localDir().resolve("bench/message-state.properties").toString()));
    }

    // ---- state written by setup ----------------------------------------------------------------------------

    /** What the phases need: pairs of (sender, peer) users, the senders' tokens, the group. */
    record State(long[] senders, long[] peers, String[] tokens, long groupId, int groupSize) {

        int pairs() {
            return senders.length;
        }
    }

    static State loadState() throws IOException {
        Path path = statePath();
        if (!Files.exists(path)) {
            throw new IllegalStateException(path + " missing: run the setup phase first");
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(path)) {
            p.load(in);
        }
        if (!appId.equals(p.getProperty("app_id"))) {
            throw new IllegalStateException(path + " belongs to another app: run setup again");
        }
        int pairs = Integer.parseInt(p.getProperty("pairs"));
        long[] senders = new long[pairs];
        long[] peers = new long[pairs];
        String[] tokens = new String[pairs];
        for (int i = 0; i < pairs; i++) {
            senders[i] = Long.parseLong(p.getProperty("sender." + i));
            peers[i] = Long.parseLong(p.getProperty("peer." + i));
            tokens[i] = p.getProperty("token." + i);
        }
        return new State(senders, peers, tokens, Long.parseLong(p.getProperty("group_id")),
                Integer.parseInt(p.getProperty("group_size")));
    }

    static void saveState(State s, String prefix) throws IOException {
        Properties p = new Properties();
        p.setProperty("app_id", appId);
        p.setProperty("base_url", baseUrl);
        p.setProperty("prefix", prefix);
        p.setProperty("pairs", String.valueOf(s.pairs()));
        for (int i = 0; i < s.pairs(); i++) {
            p.setProperty("sender." + i, String.valueOf(s.senders[i]));
            p.setProperty("peer." + i, String.valueOf(s.peers[i]));
            p.setProperty("token." + i, s.tokens[i]);
        }
        p.setProperty("group_id", String.valueOf(s.groupId));
        p.setProperty("group_size", String.valueOf(s.groupSize));
        Path path = statePath();
        Files.createDirectories(path.toAbsolutePath().getParent());
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, "deploy/bench/MessageLoad.java setup: users, tokens (secrets!) and group of the benchmark");
        }
        Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    // ---- HTTP and minimal JSON -----------------------------------------------------------------------------

    static HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT)
                .header("app_id", appId);
        if (token != null) {
            b.header("access-token", token);
        }
        return b;
    }

    static HttpRequest get(String path, String token) {
        return request(path, token).GET().build();
    }

    static HttpRequest post(String path, String token, String json) {
        return request(path, token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    static String call(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + ": " + abbreviate(response.body()));
        }
        return response.body();
    }

    /** The envelope's code: the first "code" member, which the envelope writes first. */
    static int code(String body) {
        int at = body.indexOf("\"code\":");
        if (at < 0) {
            return -1;
        }
        int i = at + 7;
        while (i < body.length() && body.charAt(i) == ' ') {
            i++;
        }
        int value = 0;
        boolean any = false;
        for (; i < body.length() && Character.isDigit(body.charAt(i)); i++) {
            value = value * 10 + (body.charAt(i) - '0');
            any = true;
        }
        return any ? value : -1;
    }

    static String callOk(HttpRequest request) throws IOException, InterruptedException {
        String body = call(request);
        if (code(body) != 200) {
            throw new IOException(request.method() + " " + request.uri().getPath() + " answered " + abbreviate(body));
        }
        return body;
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[-\\w.]+)")
                .matcher(json);
        if (!m.find()) {
            return null;
        }
        return m.group(2) != null ? m.group(2) : m.group(1);
    }

    static String abbreviate(String text) {
        return text == null ? "null" : text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    static String ids(long[] ids, int from, int to) {
        StringBuilder b = new StringBuilder("[");
        for (int i = from; i < to; i++) {
            b.append(i == from ? "" : ",").append(ids[i]);
        }
        return b.append(']').toString();
    }

    // ---- the load phases' HTTP client ---------------------------------------------------------------------

    record Reply(int status, String body) {}

    /** What the load phases send with: prepare a request once, send it many times from worker w. */
    interface Client {
        Object prepare(String method, String path, String token, String json);

        Reply send(int worker, Object prepared) throws Exception;
    }

    /**
     * The load phases' client, option client: raw (default) = a fixed pool of persistent HTTP/1.1 connections,
     * one per worker, over plain sockets with the requests serialised once; jdk = java.net.http.HttpClient
     * (HTTP/1.1). On this 2-core machine HttpClient's own CPU use caps it near 2,000 req/s even for nginx's no-op
     * (docs/benchmarks.md), which would measure the load generator instead of the service.
     */
    static Client loadClient(int workers) {
        String kind = option("client", "raw");
        return switch (kind) {
            case "raw" -> new RawClient(URI.create(baseUrl), workers);
            case "jdk" -> new JdkClient();
            default -> throw new IllegalArgumentException("client must be raw or jdk, not " + kind);
        };
    }

    static final class JdkClient implements Client {

        @Override
        public Object prepare(String method, String path, String token, String json) {
            HttpRequest.Builder b = request(path, token);
            return json == null ? b.method(method, HttpRequest.BodyPublishers.noBody()).build()
                    : b.header("Content-Type", "application/json")
                            .method(method, HttpRequest.BodyPublishers.ofString(json)).build();
        }

        @Override
        public Reply send(int worker, Object prepared) throws Exception {
            HttpResponse<String> r = http.send((HttpRequest) prepared, HttpResponse.BodyHandlers.ofString());
            return new Reply(r.statusCode(), r.body());
        }
    }

    /**
     * Minimal HTTP/1.1 client: worker w owns connection w (opened on first use, reopened when the server closes
     * it, e.g. nginx after keepalive_requests); answers framed by Content-Length or chunked encoding.
     */
    static final class RawClient implements Client {
        final String host;
        final int port;
        final String hostHeader;
        final RawConnection[] connections;

        RawClient(URI base, int workers) {
            host = base.getHost();
            port = base.getPort() > 0 ? base.getPort() : 80;
            hostHeader = base.getPort() > 0 ? host + ":" + port : host;
            connections = new RawConnection[workers];
        }

        @Override
        public Object prepare(String method, String path, String token, String json) {
            byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                    .append(hostHeader).append("\r\napp_id: ").append(appId).append("\r\n");
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
            RawConnection c = connections[worker];
            if (c == null || c.closed) {
                c = connections[worker] = new RawConnection(host, port);
            } else if (c.reused) {
                try {
                    return c.exchange((byte[]) prepared);
                } catch (RawConnection.ClosedBeforeAnswer e) {
                    // the server closed the idle connection before reading this request: resend on a new one
                    c = connections[worker] = new RawConnection(host, port);
                }
            }
            return c.exchange((byte[]) prepared);
        }
    }

    static final class RawConnection {

        /** The connection ended before any byte of the answer: the request was not processed. */
        static final class ClosedBeforeAnswer extends IOException {
            ClosedBeforeAnswer() {
                super("connection closed before the answer");
            }
        }

        final java.net.Socket socket;
        final InputStream in;
        final OutputStream out;
        byte[] buf = new byte[16384];
        int pos;
        int lim;
        boolean closed;
        boolean reused;

        RawConnection(String host, int port) throws IOException {
            socket = new java.net.Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new java.net.InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout((int) REQUEST_TIMEOUT.toMillis());
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
                java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
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

    // ---- where the CPU goes during a measured window ----------------------------------------------------------

    /**
     * CPU time of the stack's processes (.local/pids/*.pid, each with its descendants: nginx workers, PostgreSQL
     * backends), of this load generator and of the whole machine (/proc/stat), between two samples.
     */
    static final class CpuSample {
        static final String[] ORDER = {"message-service", "auth-service", "postgres", "gateway", "kafka",
                "push-service", "push-worker"};
        final Map<String, Long> ticks = new LinkedHashMap<>();
        long machineBusy;
        long machineIrq;
        long machineTotal;
        long nanos = System.nanoTime();

        static CpuSample take() {
            CpuSample sample = new CpuSample();
            try {
                Map<Long, List<Long>> children = new HashMap<>();
                Map<Long, Long> own = new HashMap<>();
                try (var dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                    for (Path dir : dirs) {
                        long[] st = stat(dir.resolve("stat"));
                        if (st != null) {
                            long pid = Long.parseLong(dir.getFileName().toString());
                            own.put(pid, st[1]);
                            children.computeIfAbsent(st[0], k -> new ArrayList<>()).add(pid);
                        }
                    }
                }
                Path pids = Path.of(option("pids", localDir().resolve("pids").toString()));
                if (Files.isDirectory(pids)) {
                    try (var files = Files.newDirectoryStream(pids, "*.pid")) {
                        for (Path f : files) {
                            String name = f.getFileName().toString().replaceAll("\\.pid$", "");
                            name = name.equals("embedded-pg") ? "postgres" : name;
                            long pid = Long.parseLong(Files.readString(f).trim());
                            sample.ticks.merge(name, tree(pid, own, children), Long::sum);
                        }
                    }
                }
                sample.ticks.put("load generator", own.getOrDefault(ProcessHandle.current().pid(), 0L));
                String[] cpu = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < cpu.length && i <= 8; i++) {
                    total += Long.parseLong(cpu[i]);
                }
                sample.machineTotal = total;
                sample.machineBusy = total - Long.parseLong(cpu[4]) - Long.parseLong(cpu[5]);
                sample.machineIrq = Long.parseLong(cpu[6]) + Long.parseLong(cpu[7]);
            } catch (Exception e) {
                sample.ticks.clear();
            }
            return sample;
        }

        static long tree(long pid, Map<Long, Long> own, Map<Long, List<Long>> children) {
            long sum = own.getOrDefault(pid, 0L);
            for (long child : children.getOrDefault(pid, List.of())) {
                sum += tree(child, own, children);
            }
            return sum;
        }

        /**
         * {ppid, utime + stime + cutime + cstime} of /proc/PID/stat, or null when the process is gone. The
         * children's part holds the CPU of children that ended (e.g. a PostgreSQL backend whose connection
         * closed), so that summing a process tree counts every tick once, ended processes included.
         */
        static long[] stat(Path file) {
            try {
                String text = Files.readString(file);
                String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
                return new long[] {Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12])
                        + Long.parseLong(f[13]) + Long.parseLong(f[14])};
            } catch (Exception e) {
                return null;
            }
        }

        /**
         * CPU|name|seconds|process=cores|...|kernel irq=cores|other processes=cores|idle=cores, where cores = CPU
         * seconds / window seconds; kernel irq is interrupt and softirq time (loopback TCP lands there), not
         * charged to any process; other processes = the machine's busy time minus all of the above.
         */
        static String line(String name, CpuSample a, CpuSample b) {
            if (a.ticks.isEmpty() || b.ticks.isEmpty()) {
                return "CPU|" + name + "|unavailable";
            }
            double seconds = (b.nanos - a.nanos) / 1e9;
            double hz = 100.0; // USER_HZ, 100 on Linux
            double cores = Runtime.getRuntime().availableProcessors();
            double totalTicks = b.machineTotal - a.machineTotal;
            double busyCores = totalTicks <= 0 ? 0 : cores * (b.machineBusy - a.machineBusy) / totalTicks;
            double irqCores = totalTicks <= 0 ? 0 : cores * (b.machineIrq - a.machineIrq) / totalTicks;
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "CPU|%s|%.1f", name, seconds));
            double known = 0;
            List<String> names = new ArrayList<>(List.of(ORDER));
            names.add("load generator");
            for (String n : names) {
                double used = (b.ticks.getOrDefault(n, 0L) - a.ticks.getOrDefault(n, 0L)) / hz / seconds;
                known += used;
                out.append(String.format(Locale.ROOT, "|%s=%.2f", n, used));
            }
            out.append(String.format(Locale.ROOT, "|kernel irq=%.2f|other processes=%.2f|idle=%.2f", irqCores,
                    Math.max(0, busyCores - known - irqCores), Math.max(0, cores - busyCores)));
            return out.toString();
        }
    }

    /** The CPU samples at the start and the end of the last measured window. */
    static CpuSample[] cpuWindow;

    // ---- latency recording and the two load shapes ---------------------------------------------------------

    /** Growable long array, one per worker: no sharing on the hot path. */
    static final class Recorder {
        long[] values = new long[4096];
        int size;
        long errors;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }

    /** One operation; returns null on success, else what went wrong (counted as an error). */
    interface Op {
        String run(int worker, long iteration) throws Exception;
    }

    static final Map<String, AtomicLong> ERROR_KINDS = new ConcurrentHashMap<>();

    static void noteError(String what) {
        String kind = what.length() > 200 ? what.substring(0, 200) : what;
        if (ERROR_KINDS.size() < 50 || ERROR_KINDS.containsKey(kind)) {
            ERROR_KINDS.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /** Checks the envelope of an answer: HTTP 200 and the expected code (and text), else the error text. */
    static String check(Reply reply, int expectedCode, String mustContain) {
        if (reply.status() != 200) {
            return "HTTP " + reply.status();
        }
        String body = reply.body();
        if (code(body) != expectedCode) {
            return "code " + code(body) + ": " + abbreviate(body);
        }
        if (mustContain != null && !body.contains(mustContain)) {
            return "answer lacks " + mustContain + ": " + abbreviate(body);
        }
        return null;
    }

    static String attempt(Op op, int worker, long iteration) {
        try {
            return op.run(worker, iteration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    record Outcome(double opsPerSecond, double p50Ms, double p99Ms, double maxMs, long errors, long count) {}

    /** Waits for the workers; the CPU window ({@link #cpuWindow}) runs from {@code measureFrom} to their end. */
    static void awaitMeasuring(Thread[] workers, long measureFrom) throws InterruptedException {
        CpuSample[] window = new CpuSample[1];
        Thread sampler = new Thread(() -> {
            LockSupport.parkNanos(measureFrom - System.nanoTime());
            window[0] = CpuSample.take();
        });
        sampler.start();
        for (Thread t : workers) {
            t.join();
        }
        sampler.join();
        cpuWindow = new CpuSample[] {window[0], CpuSample.take()};
    }

    /**
     * Closed loop: c workers, each sends its next request when the previous one answered. Requests that start in
     * the measured window (after warmup) count; throughput = their successes / duration.
     */
    static Outcome closedLoop(int c, double warmupS, double durationS, Op op) throws InterruptedException {
        Recorder[] recorders = new Recorder[c];
        long begin = System.nanoTime() + 50_000_000L;
        long measureFrom = begin + (long) (warmupS * 1e9);
        long end = measureFrom + (long) (durationS * 1e9);
        Thread[] threads = new Thread[c];
        for (int w = 0; w < c; w++) {
            int worker = w;
            Recorder r = recorders[w] = new Recorder();
            threads[w] = new Thread(() -> {
                LockSupport.parkNanos(begin - System.nanoTime());
                long iteration = 0;
                long t0;
                while ((t0 = System.nanoTime()) < end) {
                    String error = attempt(op, worker, iteration++);
                    long t1 = System.nanoTime();
                    if (t0 >= measureFrom) {
                        if (error == null) {
                            r.add(t1 - t0);
                        } else {
                            r.errors++;
                            noteError(error);
                        }
                    }
                }
            }, "closed-" + w);
            threads[w].start();
        }
        awaitMeasuring(threads, measureFrom);
        return outcome(recorders, durationS);
    }

    /**
     * An open loop's latencies, and their two parts: {@code lateP99Ms}, how late a send started after its due time
     * (no free worker, or this generator itself late), and {@code answerP99Ms}, from its start to its answer.
     */
    record OpenOutcome(Outcome outcome, double lateP99Ms, double answerP99Ms) {}

    /**
     * Open loop: request i is due at start + i / rate; a fixed pool of workers takes the next due request, waits
     * for its time if early, sends it, and records the latency from the due time: a late worker (all busy, a
     * slow answer) shows in the latency instead of silently lowering the rate (no coordinated omission).
     */
    static OpenOutcome openLoop(double rate, int workers, double warmupS, double durationS, Op op)
            throws InterruptedException {
        Recorder[] recorders = new Recorder[workers];
        Recorder[] late = new Recorder[workers];
        Recorder[] answers = new Recorder[workers];
        long begin = System.nanoTime() + 50_000_000L;
        long warmupCount = (long) (warmupS * rate);
        long total = warmupCount + (long) (durationS * rate);
        AtomicLong next = new AtomicLong();
        AtomicLong lastDone = new AtomicLong();
        Thread[] threads = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            int worker = w;
            Recorder r = recorders[w] = new Recorder();
            Recorder lateness = late[w] = new Recorder();
            Recorder answer = answers[w] = new Recorder();
            threads[w] = new Thread(() -> {
                long i;
                while ((i = next.getAndIncrement()) < total) {
                    long due = begin + (long) (i * 1e9 / rate);
                    long now;
                    while ((now = System.nanoTime()) < due) {
                        LockSupport.parkNanos(due - now);
                    }
                    String error = attempt(op, worker, i);
                    long done = System.nanoTime();
                    if (i >= warmupCount) {
                        lastDone.accumulateAndGet(done, Math::max);
                        if (error == null) {
                            r.add(done - due);
                            lateness.add(now - due);
                            answer.add(done - now);
                        } else {
                            r.errors++;
                            noteError(error);
                        }
                    }
                }
            }, "open-" + w);
            threads[w].start();
        }
        long measureFrom = begin + (long) (warmupCount * 1e9 / rate);
        awaitMeasuring(threads, measureFrom);
        double elapsed = Math.max(durationS, (lastDone.get() - measureFrom) / 1e9);
        return new OpenOutcome(outcome(recorders, elapsed), outcome(late, elapsed).p99Ms,
                outcome(answers, elapsed).p99Ms);
    }

    /**
     * Fixed count: c workers share n operations (each takes the next when its previous one answered), after
     * warmupN operations that are run but not counted; throughput = successes / time of the counted ones.
     */
    static Outcome countLoop(int c, long warmupN, long n, Op op) throws InterruptedException {
        Recorder[] recorders = new Recorder[c];
        AtomicLong next = new AtomicLong();
        AtomicLong firstCounted = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastDone = new AtomicLong();
        Thread[] threads = new Thread[c];
        for (int w = 0; w < c; w++) {
            int worker = w;
            Recorder r = recorders[w] = new Recorder();
            threads[w] = new Thread(() -> {
                long i;
                while ((i = next.getAndIncrement()) < warmupN + n) {
                    long t0 = System.nanoTime();
                    String error = attempt(op, worker, i);
                    long t1 = System.nanoTime();
                    if (i >= warmupN) {
                        firstCounted.accumulateAndGet(t0, Math::min);
                        lastDone.accumulateAndGet(t1, Math::max);
                        if (error == null) {
                            r.add(t1 - t0);
                        } else {
                            r.errors++;
                            noteError(error);
                        }
                    }
                }
            }, "count-" + w);
            threads[w].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        return outcome(recorders, Math.max(1e-9, (lastDone.get() - firstCounted.get()) / 1e9));
    }

    static Outcome outcome(Recorder[] recorders, double seconds) {
        int n = 0;
        long errors = 0;
        for (Recorder r : recorders) {
            n += r.size;
            errors += r.errors;
        }
        long[] all = new long[n];
        int at = 0;
        for (Recorder r : recorders) {
            System.arraycopy(r.values, 0, all, at, r.size);
            at += r.size;
        }
        Arrays.sort(all);
        return new Outcome(n / seconds, percentile(all, 50) / 1e6, percentile(all, 99) / 1e6,
                n == 0 ? Double.NaN : all[n - 1] / 1e6, errors, n + errors);
    }

    /** Nearest rank: the smallest value with at least p % of the values at or below it. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    static void report(String name, Outcome o, String notes) {
        System.out.printf(Locale.ROOT, "RESULT|%s|%.1f|%.1f|%.1f|%d|%d|%s%n", name, o.opsPerSecond, o.p50Ms, o.p99Ms,
                o.errors, o.count, notes == null ? "" : notes);
        if (cpuWindow != null) {
            System.out.println(CpuSample.line(phase, cpuWindow[0], cpuWindow[1]));
            cpuWindow = null;
        }
        if (!ERROR_KINDS.isEmpty()) {
            System.err.println(name + ": errors by kind:");
            ERROR_KINDS.forEach((k, v) -> System.err.println("  " + v.get() + " x " + k));
            ERROR_KINDS.clear();
        }
        System.out.flush();
    }

    // ---- setup ---------------------------------------------------------------------------------------------

    static void setup() throws Exception {
        int pairs = intOption("pairs", 100);
        int groupSize = intOption("group_size", 500);
        int seed = intOption("seed", 20);
        if (groupSize > 2 * pairs + 1000 || groupSize < 2) {
            throw new IllegalArgumentException("group_size must be 2 to " + (2 * pairs + 1000));
        }
        call(get("/bench-noop", null)); // the gateway answers
        State state = reusableState(pairs, groupSize);
        long started = System.nanoTime();
        String notes;
        if (state != null) {
            notes = "reused " + statePath();
        } else {
            String adminToken = required("ADMIN_TOKEN");
            String prefix = "mb" + Long.toString(System.currentTimeMillis(), 36);
            // pairs senders and pairs peers; the group takes sender 0 as owner, then senders, peers, extra users
            long[] senders = register(adminToken, prefix + "_s", pairs);
            long[] peers = register(adminToken, prefix + "_p", pairs);
            int extra = Math.max(0, groupSize - 2 * pairs);
            long[] extras = register(adminToken, prefix + "_g", extra);
            System.err.printf(Locale.ROOT, "setup: registered %d users (%.1f s)%n", 2 * pairs + extra,
                    (System.nanoTime() - started) / 1e9);
            String[] tokens = tokens(senders);
            System.err.printf(Locale.ROOT, "setup: %d tokens (%.1f s)%n", pairs, (System.nanoTime() - started) / 1e9);
            long[] members = new long[groupSize];
            int m = 0;
            for (long id : senders) {
                if (m < groupSize) {
                    members[m++] = id;
                }
            }
            for (long id : peers) {
                if (m < groupSize) {
                    members[m++] = id;
                }
            }
            for (long id : extras) {
                if (m < groupSize) {
                    members[m++] = id;
                }
            }
            // user_list holds the owner too (the service leaves the owner in the owner role)
            String body = "{\"name\":\"bench-" + groupSize + "\",\"user_list\":" + ids(members, 0, groupSize) + "}";
            String answer = callOk(post("/group/create", tokens[0], body));
            long groupId = Long.parseLong(field(answer, "group_id"));
            String count = field(answer, "member_count");
            if (!String.valueOf(groupSize).equals(count)) {
                throw new IllegalStateException("group has " + count + " members, not " + groupSize + ": " + answer);
            }
            state = new State(senders, peers, tokens, groupId, groupSize);
            saveState(state, prefix);
            notes = "new users " + prefix + "_*, group " + groupId;
        }
        seedConversations(state, seed);
        System.out.printf(Locale.ROOT, "RESULT|setup|%d pairs, group of %d|%.1f s|%s%n", state.pairs(),
                state.groupSize(), (System.nanoTime() - started) / 1e9, notes);
    }

    /** The state file, when it is for this app and size and its tokens and group still work. */
    static State reusableState(int pairs, int groupSize) {
        if (!"".equals(option("force", "")) && !"0".equals(option("force", "0"))) {
            return null;
        }
        try {
            State s = loadState();
            if (s.pairs() != pairs || s.groupSize() != groupSize) {
                return null;
            }
            for (int i : new int[] {0, pairs - 1}) {
                callOk(get("/user/device/list", s.tokens[i]));
            }
            String info = callOk(get("/group/info?group_id=" + s.groupId, s.tokens[0]));
            return String.valueOf(groupSize).equals(field(info, "member_count")) ? s : null;
        } catch (Exception e) {
            System.err.println("setup: state not reusable (" + e.getMessage() + "): creating new users");
            return null;
        }
    }

    static long[] register(String adminToken, String namePrefix, int n) throws Exception {
        long[] ids = new long[n];
        Pattern entry = Pattern.compile("\\{[^{}]*\\}");
        int batch = intOption("register_batch", 100);
        for (int from = 0; from < n; from += batch) {
            int to = Math.min(n, from + batch);
            StringBuilder body = new StringBuilder("{\"list\":[");
            for (int i = from; i < to; i++) {
                body.append(i == from ? "" : ",").append("{\"username\":\"").append(namePrefix).append(i)
                        .append("\",\"password\":\"").append(PASSWORD).append("\"}");
            }
            HttpRequest request = post("/user/register/batch", adminToken, body.append("]}").toString());
            String answer = call(request);
            // 50003 "safe to retry": a batch's bcrypt hashes outlasted the transaction on a busy machine
            for (int retry = 0; code(answer) == 50003 && retry < 5; retry++) {
                System.err.println("setup: /user/register/batch answered 50003, retrying");
                answer = call(request);
            }
            if (code(answer) != 200) {
                throw new IOException("POST /user/register/batch answered " + abbreviate(answer));
            }
            Matcher m = entry.matcher(answer.substring(answer.indexOf("\"data\"")));
            int i = from;
            while (m.find()) {
                String e = m.group();
                if (!"true".equals(field(e, "success"))) {
                    throw new IllegalStateException("registration failed: " + e);
                }
                if (i >= to || !(namePrefix + i).equals(field(e, "username"))) {
                    throw new IllegalStateException("unexpected registration answer: " + e);
                }
                ids[i++] = Long.parseLong(field(e, "user_id"));
            }
            if (i != to) {
                throw new IllegalStateException("registration answered " + (i - from) + " of " + (to - from));
            }
        }
        return ids;
    }

    /** One token per user, without a device (a WebSocket then names any device_sn). bcrypt bounds the rate. */
    static String[] tokens(long[] users) throws Exception {
        String[] tokens = new String[users.length];
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < users.length; i++) {
                int k = i;
                all.add(CompletableFuture.runAsync(() -> {
                    try {
                        String answer = callOk(post("/token/id", null,
                                "{\"user_id\":" + users[k] + ",\"password\":\"" + PASSWORD + "\"}"));
                        tokens[k] = field(answer, "token");
                    } catch (Exception e) {
                        throw new IllegalStateException("token for user " + users[k] + ": " + e.getMessage(), e);
                    }
                }, pool));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } finally {
            pool.shutdownNow();
        }
        return tokens;
    }

    /** Each conversation gets at least `seed` messages, so the read phase reads full pages of 20. */
    static void seedConversations(State s, int seed) throws Exception {
        AtomicInteger sent = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(32, s.pairs()));
        try {
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < s.pairs(); i++) {
                int k = i;
                all.add(CompletableFuture.runAsync(() -> {
                    try {
                        String page = callOk(get("/message/conversation?opposite_id=" + s.peers[k] + "&limit=" + seed,
                                s.tokens[k]));
                        int have = Integer.parseInt(field(page, "messages_size"));
                        HttpRequest send = sendRequest(s, k, "seed message");
                        for (int j = have; j < seed; j++) {
                            callOk(send);
                            sent.incrementAndGet();
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException("seeding pair " + k + ": " + e.getMessage(), e);
                    }
                }, pool));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } finally {
            pool.shutdownNow();
        }
        System.err.println("setup: seeded " + sent.get() + " messages");
    }

    static HttpRequest sendRequest(State s, int pair, String content) {
        return post("/message/send", s.tokens[pair], sendJson(s, pair, content));
    }

    // ---- load phases ---------------------------------------------------------------------------------------

    static final String SENT = "\"data\":true";

    static String sendJson(State s, int pair, String content) {
        return "{\"content_type\":0,\"content\":\"" + content + " " + s.senders[pair] + "\",\"targets\":["
                + s.peers[pair] + "],\"type\":1}";
    }

    static String clientNote(Outcome o) {
        return String.format(Locale.ROOT, "max %.1f ms; client %s", o.maxMs, option("client", "raw"));
    }

    static void sendClosed() throws Exception {
        State s = loadState();
        int c = Math.min(intOption("c", 100), s.pairs());
        Client client = loadClient(c);
        Object[] sends = new Object[c];
        for (int i = 0; i < c; i++) {
            sends[i] = client.prepare("POST", "/message/send", s.tokens[i], sendJson(s, i, "closed-loop message from"));
        }
        Outcome o = closedLoop(c, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, sends[w]), 200, SENT));
        report("1:1 send, closed loop, c=" + c + " (" + c + " senders, each to its own peer)", o, clientNote(o));
    }

    static void sendRate() throws Exception {
        State s = loadState();
        double rate = doubleOption("rate", 1000);
        int workers = intOption("workers", 100);
        Client client = loadClient(workers);
        Object[] sends = new Object[s.pairs()];
        for (int i = 0; i < s.pairs(); i++) {
            sends[i] = client.prepare("POST", "/message/send", s.tokens[i], sendJson(s, i, "fixed-rate message from"));
        }
        OpenOutcome open = openLoop(rate, workers, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, sends[(int) (i % sends.length)]), 200, SENT));
        Outcome o = open.outcome();
        report(String.format(Locale.ROOT, "1:1 send, open loop at %.0f/s (%d pairs, %d connections)", rate,
                s.pairs(), workers), o, clientNote(o) + String.format(Locale.ROOT,
                        "; latency from the scheduled time (p99 of its parts: start %.1f ms late, answer %.1f ms)",
                        open.lateP99Ms(), open.answerP99Ms()));
    }

    static void group() throws Exception {
        State s = loadState();
        int c = Math.min(intOption("c", 10), s.pairs());
        Client client = loadClient(c);
        Object[] sends = new Object[c];
        for (int i = 0; i < c; i++) {
            sends[i] = client.prepare("POST", "/message/send", s.tokens[i], "{\"content_type\":0,\"content\":"
                    + "\"group message from " + s.senders[i] + "\",\"targets\":[" + s.groupId + "],\"type\":2}");
        }
        Outcome o = closedLoop(c, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, sends[w]), 200, SENT));
        report("group send, " + s.groupSize() + " members, closed loop, c=" + c + " (members sending)", o,
                clientNote(o));
    }

    static void read() throws Exception {
        State s = loadState();
        int c = intOption("c", 64);
        int limit = 20;
        int pairs = s.pairs();
        Client client = loadClient(c);
        Object[] reads = new Object[pairs];
        for (int i = 0; i < pairs; i++) {
            reads[i] = client.prepare("GET", "/message/conversation?opposite_id=" + s.peers[i] + "&limit=" + limit,
                    s.tokens[i], null);
        }
        String full = "\"messages_size\":" + limit + ",";
        // every conversation answers a full page of 20, or the phase would measure something else
        for (int i = 0; i < pairs; i++) {
            String error = check(client.send(0, reads[i]), 200, full);
            if (error != null) {
                throw new IllegalStateException("conversation " + i + " not ready for the read phase: " + error);
            }
        }
        Outcome o = closedLoop(c, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, reads[(int) ((w + i * c) % pairs)]), 200, full));
        report("conversation page reads (limit=20), c=" + c + " readers over " + pairs + " conversations", o,
                clientNote(o));
    }

    static void authRead() throws Exception {
        State s = loadState();
        int c = intOption("c", 100);
        Client client = loadClient(c);
        Object[] reads = new Object[s.pairs()];
        for (int i = 0; i < s.pairs(); i++) {
            reads[i] = client.prepare("GET", "/user/device/list", s.tokens[i], null);
        }
        Outcome o = closedLoop(c, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, reads[w % reads.length]), 200, null));
        report("baseline: GET /user/device/list (auth-service), c=" + c, o, clientNote(o));
    }

    static void noop() throws Exception {
        int c = intOption("c", 100);
        Client client = loadClient(c);
        Object noop = client.prepare("GET", "/bench-noop", null, null);
        Outcome o = closedLoop(c, doubleOption("warmup", 3), doubleOption("duration", 20),
                (w, i) -> check(client.send(w, noop), 10002, null));
        report("baseline: gateway no-op GET /bench-noop (nginx), c=" + c, o, clientNote(o));
    }

    // ---- push: accept latency and one expansion ------------------------------------------------------------

    static final String[] PUSH_CHANNELS = {"ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e",
        "svcpush"};

    /** A text push to every device of the app; due at once, or scheduled a day ahead (never expanded here). */
    static String pushAllJson(boolean scheduled) {
        String begin = scheduled ? ",\"show_begin_time\":" + (System.currentTimeMillis() / 1000 + 86_400) : "";
        return "{\"audience\":\"all\",\"setting\":{},\"message\":{\"type\":\"text\",\"title\":\"bench\","
                + "\"body\":\"push benchmark: one text message to every device of the app\"" + begin + "}}";
    }

    /** n scheduled audience-all tasks at concurrency c; the RESULT line is named after where BASE_URL points. */
    static Outcome acceptLoad(int c, long warmupN, long n) throws InterruptedException {
        Client client = loadClient(c);
        Object notify = client.prepare("POST", "/push/notify", required("ADMIN_TOKEN"), pushAllJson(true));
        return countLoop(c, warmupN, n, (w, i) -> check(client.send(w, notify), 200, "\"task_id\""));
    }

    static String acceptName(int c, long n, String where) {
        return "push accept: POST /push/notify audience all, " + n + " calls, c=" + c + ", " + where;
    }

    static void pushAccept() throws Exception {
        int c = intOption("c", 4);
        long n = intOption("n", 300);
        Outcome o = acceptLoad(c, intOption("warmup_n", 20), n);
        report(acceptName(c, n, option("where", "via " + baseUrl)), o, clientNote(o));
    }

    static long pushServicePid() throws IOException {
        return Long.parseLong(Files.readString(Path.of(option("pids", localDir().resolve("pids").toString()), "push-service.pid")).trim());
    }

    static void pushExpand() throws Exception {
        String admin = required("ADMIN_TOKEN");
        long pid = pushServicePid();
        double timeoutS = doubleOption("timeout", 600);
        int acceptC = intOption("accept_c", 4);
        long acceptN = intOption("accept_n", 300);
        double acceptDelayS = doubleOption("accept_delay", 2);

        long rssStart = rssKb(pid);
        AtomicLong rssMax = new AtomicLong(rssStart);
        AtomicLong rssSamples = new AtomicLong();
        AtomicLong rssLast = new AtomicLong(rssStart);
        Thread rssSampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    long kb = rssKb(pid);
                    rssLast.set(kb);
                    rssMax.accumulateAndGet(kb, Math::max);
                    rssSamples.incrementAndGet();
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException e) {
                    noteError("rss: " + e.getMessage());
                    return;
                }
            }
        }, "rss");
        rssSampler.setDaemon(true);

        rssSampler.start();
        long t0 = System.nanoTime();
        String accepted = callOk(post("/push/notify", admin, pushAllJson(false)));
        long tAccepted = System.nanoTime();
        CpuSample cpuStart = CpuSample.take(); // the CPU window is the expansion's: from the accept to the end
        long taskId = Long.parseLong(field(accepted, "task_id"));
        System.err.printf(Locale.ROOT, "push-expand: task %d accepted in %.1f ms%n", taskId, (tAccepted - t0) / 1e6);

        Outcome[] underLoad = new Outcome[1];
        Thread acceptThread = new Thread(() -> {
            try {
                LockSupport.parkNanos((long) (acceptDelayS * 1e9));
                underLoad[0] = acceptLoad(acceptC, 0, acceptN);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "accept-under-load");
        if (acceptN > 0) {
            acceptThread.start();
        }

        HttpRequest detail = post("/push/task/detail", admin, "{\"list\":[" + taskId + "]}");
        String body;
        String state;
        long firstProgress = 0;
        long polls = 0;
        long lastPrint = tAccepted;
        while (true) {
            long pollAt = System.nanoTime();
            body = callOk(detail);
            polls++;
            state = field(body, "state");
            long expanded = Long.parseLong(field(body, "devices_expanded"));
            if (firstProgress == 0 && expanded > 0) {
                firstProgress = pollAt;
            }
            if (!"accepted".equals(state) && !"expanding".equals(state)) {
                break;
            }
            if (pollAt - lastPrint > 2_000_000_000L) {
                lastPrint = pollAt;
                System.err.printf(Locale.ROOT, "push-expand: %.1f s, %s, %d devices, %d batches, rss %d MiB%n",
                        (pollAt - tAccepted) / 1e9, state, expanded, Long.parseLong(field(body, "batches_total")),
                        rssLast.get() / 1024);
            }
            if (pollAt - tAccepted > timeoutS * 1e9) {
                throw new IllegalStateException("task " + taskId + " still " + state + " after " + timeoutS + " s");
            }
            LockSupport.parkNanos(pollAt + 100_000_000L - System.nanoTime());
        }
        long tEnd = System.nanoTime();
        rssSampler.interrupt();
        rssSampler.join();
        CpuSample cpuEnd = CpuSample.take();
        if (acceptN > 0) {
            acceptThread.join();
        }

        StringBuilder targets = new StringBuilder();
        long targetSum = 0;
        for (String channel : PUSH_CHANNELS) {
            long t = Long.parseLong(field(body, channel + "_target"));
            targetSum += t;
            targets.append(targets.length() == 0 ? "" : ",").append(channel).append('=').append(t);
        }
        System.out.printf(Locale.ROOT, "EXPAND|%d|%.2f|%s|%s|%s|%d|%s|%.2f|%d%n", taskId, (tEnd - tAccepted) / 1e9,
                state, field(body, "devices_expanded"), field(body, "batches_total"), targetSum, targets,
                firstProgress == 0 ? Double.NaN : (firstProgress - tAccepted) / 1e9, polls);
        System.out.printf(Locale.ROOT, "RSS|push-service|%.1f|%.1f|%.1f|%d%n", rssStart / 1024.0, rssMax.get() / 1024.0,
                rssLast.get() / 1024.0, rssSamples.get());
        System.out.println(CpuSample.line("push-expand", cpuStart, cpuEnd));
        if (acceptN > 0) {
            Outcome o = underLoad[0] != null ? underLoad[0] : new Outcome(0, Double.NaN, Double.NaN, Double.NaN, 0, 0);
            report(acceptName(acceptC, acceptN, option("where", "via " + baseUrl) + ", during the expansion"), o,
                    clientNote(o));
        } else {
            ERROR_KINDS.forEach((k, v) -> System.err.println("push-expand: " + v.get() + " x " + k));
        }
    }

    // ---- idle WebSockets -----------------------------------------------------------------------------------

    static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for pid " + pid);
    }

    static int threads(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    // ---- fault suite phases (deploy/chaos/run.sh, docs/reliability.md) ---------------------------------------

    /**
     * chaos-send: 1:1 text sends at `rate` (20/s) for `duration` (30) s or until the file `until` exists, open
     * loop: each send is started at its due time whatever the earlier ones are doing (a stopped service must not
     * slow the load down), with its own `timeout` (10 s), so the phase ends at most `timeout` after the last
     * send started. Send SEQ of pair P carries the text
     * "chaos TAG SEQ" and writes a line "start_ms end_ms P SEQ OUTCOME" to `out`; OUTCOME is the envelope's code, or
     * timeout, refused, io, http-NNN or not-envelope when the answer was no envelope at all.
     */
    static void chaosSend() throws Exception {
        State s = loadState();
        String tag = option("tag", "untagged");
        double rate = doubleOption("rate", 20);
        long total = (long) (rate * doubleOption("duration", 30));
        Duration timeout = Duration.ofMillis((long) (doubleOption("timeout", 10) * 1000));
        String untilFile = option("until", "");
        String[] lines = new String[(int) total];
        List<CompletableFuture<Void>> sends = new ArrayList<>();
        long begin = System.nanoTime();
        int issued = 0;
        for (int i = 0; i < total && (untilFile.isEmpty() || !Files.exists(Path.of(untilFile))); i++, issued++) {
            long due = begin + (long) (i * 1e9 / rate);
            for (long now; (now = System.nanoTime()) < due; ) {
                LockSupport.parkNanos(due - now);
            }
            int seq = i;
            int pair = i % s.pairs();
            HttpRequest send = request("/message/send", s.tokens[pair]).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"content_type\":0,\"content\":\"chaos " + tag + " "
                            + seq + "\",\"targets\":[" + s.peers[pair] + "],\"type\":1}"))
                    .build();
            long startMs = System.currentTimeMillis();
            sends.add(http.sendAsync(send, HttpResponse.BodyHandlers.ofString())
                    .orTimeout(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS)
                    .handle((response, error) -> {
                        lines[seq] = startMs + " " + System.currentTimeMillis() + " " + pair + " " + seq + " "
                                + chaosOutcome(response, error);
                        return null;
                    }));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
        Path out = Path.of(option("out", localDir().resolve("chaos/sends.log").toString()));
        Files.createDirectories(out.toAbsolutePath().getParent());
        List<String> written = Arrays.asList(lines).subList(0, issued);
        Files.write(out, written);
        Map<String, Integer> byOutcome = new TreeMap<>();
        for (String line : written) {
            byOutcome.merge(line.substring(line.lastIndexOf(' ') + 1), 1, Integer::sum);
        }
        System.out.println("CHAOS-SEND|" + tag + "|" + issued + "|" + byOutcome);
    }

    /** What a fault-suite send got: the envelope's code, or what kind of non-answer. */
    static String chaosOutcome(HttpResponse<String> response, Throwable error) {
        Throwable cause = error instanceof CompletionException ? error.getCause() : error;
        if (cause instanceof java.net.http.HttpTimeoutException
                || cause instanceof java.util.concurrent.TimeoutException) {
            return "timeout";
        }
        if (cause instanceof ConnectException) {
            return "refused";
        }
        if (cause != null) {
            // which failure it was (a reset, a closed connection) goes to the load's log, beside the counts
            System.err.println("chaos-send io: " + cause);
            return "io";
        }
        if (response.statusCode() != 200) {
            return "http-" + response.statusCode();
        }
        String body = response.body().strip();
        boolean envelope = body.startsWith("{") && body.endsWith("}") && body.contains("\"code\":")
                && body.contains("\"data\":") && body.contains("\"message\":");
        return envelope && code(body) > 0 ? String.valueOf(code(body)) : "not-envelope";
    }

    /**
     * chaos-verify: every send of the chaos-send log `out` that was answered 200 must be readable in its
     * conversation. Reads each pair's conversation from the newest message back to the first send of the log
     * (pages of 100, each page retried for up to `retry` (60) s). Prints VERIFY|tag|acknowledged|lost|stored
     * without acknowledgement|duplicates, and the lost sequence numbers to stderr.
     */
    static void chaosVerify() throws Exception {
        State s = loadState();
        String tag = option("tag", "untagged");
        List<String> lines = Files.readAllLines(Path.of(option("out", localDir().resolve("chaos/sends.log").toString())));
        long firstStartMs = Long.MAX_VALUE;
        Map<Integer, Set<Integer>> acked = new HashMap<>();
        int ackedCount = 0;
        for (String line : lines) {
            String[] f = line.split(" ");
            firstStartMs = Math.min(firstStartMs, Long.parseLong(f[0]));
            if (f[4].equals("200")) {
                acked.computeIfAbsent(Integer.parseInt(f[2]), k -> new HashSet<>())
                        .add(Integer.parseInt(f[3]));
                ackedCount++;
            }
        }
        Pattern mine = Pattern.compile("\"content\":\"chaos " + Pattern.quote(tag) + " (\\d+)\"");
        Pattern timestamp = Pattern.compile("\"timestamp\":(\\d+)");
        long retryMs = (long) (doubleOption("retry", 60) * 1000);
        List<Integer> lost = new ArrayList<>();
        int storedUnacked = 0;
        int duplicates = 0;
        for (int pair = 0; pair < s.pairs(); pair++) {
            Set<Integer> want = acked.getOrDefault(pair, Set.of());
            Set<Integer> seen = new HashSet<>();
            String start = "0";
            while (true) {
                String page = chaosPage("/message/conversation?limit=100&opposite_id=" + s.peers[pair]
                        + "&msg_id_start=" + start, s.tokens[pair], retryMs);
                Matcher m = mine.matcher(page);
                while (m.find()) {
                    if (!seen.add(Integer.parseInt(m.group(1)))) {
                        duplicates++;
                    }
                }
                long oldest = Long.MAX_VALUE;
                for (Matcher t = timestamp.matcher(page); t.find(); ) {
                    oldest = Math.min(oldest, Long.parseLong(t.group(1)));
                }
                // a message older than the first send (with 5 s of clock slack) ends the window
                if ("true".equals(field(page, "is_last")) || oldest < firstStartMs - 5000) {
                    break;
                }
                start = field(page, "next_msg_id");
            }
            for (int seq : want) {
                if (!seen.contains(seq)) {
                    lost.add(seq);
                }
            }
            for (int seq : seen) {
                if (!want.contains(seq)) {
                    storedUnacked++;
                }
            }
        }
        System.out.println("VERIFY|" + tag + "|" + ackedCount + "|" + lost.size() + "|" + storedUnacked + "|"
                + duplicates);
        if (!lost.isEmpty()) {
            System.err.println("chaos-verify " + tag + ": lost sends (acknowledged 200, not in the conversation): "
                    + lost);
        }
    }

    /** One conversation page (code 200), retried every second for up to retryMs while the stack recovers. */
    static String chaosPage(String path, String token, long retryMs) throws Exception {
        long deadline = System.currentTimeMillis() + retryMs;
        while (true) {
            try {
                return callOk(get(path, token));
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("GET " + path + " kept failing for " + retryMs + " ms: " + e.getMessage(), e);
                }
                Thread.sleep(1000);
            }
        }
    }


    /** One device's live connection: open, send the auth frame, complete `authed` on {"type":"auth","code":200}. */
    static final class Device implements WebSocket.Listener {
        final String authFrame;
        final CompletableFuture<Void> authed = new CompletableFuture<>();
        final StringBuilder text = new StringBuilder();
        volatile WebSocket socket;
        volatile boolean closed;
        volatile String closeReason;
        final AtomicInteger pongs = new AtomicInteger();

        Device(String authFrame) {
            this.authFrame = authFrame;
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
                String type = field(frame, "type");
                if ("auth".equals(type)) {
                    if (code(frame) == 200) {
                        authed.complete(null);
                    } else {
                        authed.completeExceptionally(new IOException("auth answered " + abbreviate(frame)));
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
    }

    static void wsIdle() throws Exception {
        State s = loadState();
        int conns = intOption("conns", 2000);
        int inFlight = intOption("c", 50);
        double hold = doubleOption("hold", 20);
        long pid = Long.parseLong(Files.readString(Path.of(option("pidfile", localDir().resolve("pids/message-service.pid").toString())))
                .trim());
        URI uri = URI.create(baseUrl.replaceFirst("^http", "ws") + "/ws");
        HttpClient wsClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        long rssBefore = rssKb(pid);
        int threadsBefore = threads(pid);

        Device[] devices = new Device[conns];
        Recorder recorder = new Recorder();
        Semaphore permits = new Semaphore(inFlight);
        CountDownLatch done = new CountDownLatch(conns);
        long started = System.nanoTime();
        for (int k = 0; k < conns; k++) {
            int pair = k % s.pairs();
            int deviceSn = k / s.pairs() + 1;
            Device d = devices[k] = new Device("{\"type\":\"auth\",\"app_id\":\"" + appId + "\",\"token\":\""
                    + s.tokens[pair] + "\",\"device_sn\":" + deviceSn + "}");
            permits.acquire();
            long t0 = System.nanoTime();
            wsClient.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10)).buildAsync(uri, d)
                    .thenCompose(ws -> d.authed)
                    .orTimeout(30, TimeUnit.SECONDS)
                    .whenComplete((v, e) -> {
                        long t1 = System.nanoTime();
                        synchronized (recorder) {
                            if (e == null) {
                                recorder.add(t1 - t0);
                            } else {
                                recorder.errors++;
                                noteError(String.valueOf(e.getCause() != null ? e.getCause() : e));
                            }
                        }
                        permits.release();
                        done.countDown();
                    });
        }
        done.await();
        double openSeconds = (System.nanoTime() - started) / 1e9;
        long rssOpen = rssKb(pid);
        int authed = recorder.size;
        Outcome o = outcome(new Recorder[] {recorder}, openSeconds);

        // hold: ping every 30 s (the server closes connections silent for im.message.live-idle-timeout, 90 s)
        long holdEnd = System.nanoTime() + (long) (hold * 1e9);
        long nextPing = System.nanoTime() + 30_000_000_000L;
        long rssMax = rssOpen;
        while (System.nanoTime() < holdEnd) {
            Thread.sleep(Math.min(1000, Math.max(1, (holdEnd - System.nanoTime()) / 1_000_000)));
            rssMax = Math.max(rssMax, rssKb(pid));
            if (System.nanoTime() >= nextPing) {
                for (Device d : devices) {
                    if (d.socket != null && !d.closed) {
                        d.socket.sendText("{\"type\":\"ping\"}", true);
                    }
                }
                nextPing += 30_000_000_000L;
            }
        }
        long rssHeld = rssKb(pid);
        rssMax = Math.max(rssMax, rssHeld);
        int threadsHeld = threads(pid);
        int open = 0;
        Map<String, Integer> closeReasons = new LinkedHashMap<>();
        for (Device d : devices) {
            if (d.authed.isDone() && !d.authed.isCompletedExceptionally() && !d.closed) {
                open++;
            } else if (d.closed && d.authed.isDone() && !d.authed.isCompletedExceptionally()) {
                closeReasons.merge(String.valueOf(d.closeReason), 1, Integer::sum);
            }
        }
        if (!closeReasons.isEmpty()) {
            System.err.println("ws-idle: authenticated connections closed during the hold: " + closeReasons);
        }
        report("WebSocket connect + auth, " + conns + " connections (" + s.pairs() + " users x "
                + ((conns + s.pairs() - 1) / s.pairs()) + " devices), " + inFlight + " in flight", o,
                String.format(Locale.ROOT, "%d authenticated, %d still open after %.0f s", authed, open, hold));
        System.out.printf(Locale.ROOT, "RSS|message-service|0 connections|%.1f MiB|threads %d%n", rssBefore / 1024.0,
                threadsBefore);
        System.out.printf(Locale.ROOT, "RSS|message-service|%d connections after %.0f s|%.1f MiB|threads %d, "
                + "max during hold %.1f MiB%n", open, hold, rssHeld / 1024.0, threadsHeld, rssMax / 1024.0);

        // close them all, politely, and wait a little for the server to clear presence
        List<CompletableFuture<WebSocket>> closing = new ArrayList<>();
        for (Device d : devices) {
            if (d.socket != null && !d.closed) {
                closing.add(d.socket.sendClose(WebSocket.NORMAL_CLOSURE, "bench done")
                        .toCompletableFuture());
            }
        }
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            System.err.println("ws-idle: not every close completed: " + e);
        }
        long waitUntil = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < waitUntil && Arrays.stream(devices).anyMatch(d -> d.socket != null && !d.closed)) {
            Thread.sleep(100);
        }
        for (Device d : devices) {
            if (d.socket != null && !d.closed) {
                d.socket.abort();
            }
        }
        System.out.flush();
    }
}
