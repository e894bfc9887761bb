// The file workload (docs/files.md; deploy/bench/message.sh PHASES=files), on BenchUsers' senders:
//   file-upload    POST /file/upload (a presigned PUT URL per call) of a 1 KiB file, c callers (100), closed loop
//   file-complete  POST /file/complete of `files` (20000) distinct 1 KiB files uploaded (PUT to the object store)
//                  beforehand, c callers (100); the first tenth warms up and is not counted
//   file-large     one file of `mb` (100) MiB: declared, PUT straight to the object store, completed; message-service's
//                  VmRSS before, its peak while the bytes go to the store and while completion reads them (sampled
//                  every 20 ms), after. One RSS| line.

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class FileWorkload {

    private static final int SMALL = 1024;
    private static final Pattern HEADER = Pattern.compile("\"([^\"]+)\"\\s*:\\s*\"([^\"]*)\"");

    private FileWorkload() {}

    /** A declared upload: its file_id, URL and signed headers. */
    private record Ticket(long fileId, String url, Map<String, String> headers) {}

    static void upload() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Math.min(Options.getInt("c", 100), s.pairs());
        byte[] bytes = bytes(0, SMALL);
        LoadClient client = LoadClient.forWorkers(c);
        Object[] uploads = new Object[c];
        for (int i = 0; i < c; i++) {
            uploads[i] = client.prepare("POST", "/file/upload", s.tokens()[i], declaration(bytes.length, sha256(bytes)));
        }
        Results.Outcome o = Loops.closedLoop(c, MessageWorkload.warmup(), MessageWorkload.duration(),
                (w, i) -> Results.check(client.send(w, uploads[w]), 200, "\"upload_url\""));
        Results.report("file upload URL issuance (POST /file/upload), closed loop, c=" + c, o, Results.clientNote(o));
    }

    static void complete() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Math.min(Options.getInt("c", 100), s.pairs());
        int n = Options.getInt("files", 20000);
        LoadClient client = LoadClient.forWorkers(c);
        Object[] completions = new Object[n];
        AtomicLong done = new AtomicLong();
        System.err.println("file-complete: uploading " + n + " files of " + SMALL + " bytes");
        BenchUsers.inParallel(c, n, i -> {
            try {
                byte[] bytes = bytes(i, SMALL);
                String token = s.tokens()[i % s.pairs()];
                Ticket ticket = declare(token, bytes.length, sha256(bytes));
                put(ticket, HttpRequest.BodyPublishers.ofByteArray(bytes));
                completions[i] = client.prepare("POST", "/file/complete", token,
                        "{\"file_id\":" + ticket.fileId() + "}");
                if (done.incrementAndGet() % 5000 == 0) {
                    System.err.println("file-complete: " + done.get() + " uploaded");
                }
            } catch (Exception e) {
                throw new IllegalStateException("upload " + i + ": " + e.getMessage(), e);
            }
        });
        int warm = n / 10;
        Results.Outcome o = Loops.countLoop(c, warm, n - warm,
                (w, i) -> Results.check(client.send(w, completions[(int) i]), 200, "\"file_id\""));
        Results.report("file completion (POST /file/complete, 1 KiB files: size, SHA-256, type), c=" + c
                + ", " + (n - warm) + " files", o, Results.clientNote(o));
    }

    static void large() throws Exception {
        BenchUsers s = BenchUsers.load();
        long size = Options.getInt("mb", 100) * 1024L * 1024L;
        long pid = ProcessStatus.pid(Options.pidsDir().resolve("message-service.pid"));
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = new Generated(7, size)) {
            byte[] buffer = new byte[1 << 16];
            for (int r; (r = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, r);
            }
        }
        String token = s.tokens()[0];
        long before = ProcessStatus.rssKb(pid);
        Ticket ticket = declare(token, size, HexFormat.of().formatHex(digest.digest()));
        RssPeak peak = new RssPeak(pid);
        long t0 = System.nanoTime();
        put(ticket, HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> new Generated(7, size)), size));
        long t1 = System.nanoTime();
        long duringPut = peak.reset();
        String answer = Api.callOk(Api.post("/file/complete", token, "{\"file_id\":" + ticket.fileId() + "}"));
        long t2 = System.nanoTime();
        long duringComplete = peak.stop();
        long after = ProcessStatus.rssKb(pid);
        System.out.printf(Locale.ROOT, "RSS|file-large|%d MiB|message-service VmRSS MiB: before %d, peak during the PUT "
                        + "%d, peak during completion %d, after %d|PUT %.1f s, completion %.1f s|%s%n",
                size >> 20, before >> 10, duringPut >> 10, duringComplete >> 10, after >> 10, (t1 - t0) / 1e9,
                (t2 - t1) / 1e9, Json.abbreviate(answer));
    }

    private static String declaration(long size, String sha256) {
        return "{\"name\":\"bench.bin\",\"content_type\":\"application/octet-stream\",\"size\":" + size
                + ",\"sha256\":\"" + sha256 + "\"}";
    }

    private static Ticket declare(String token, long size, String sha256) throws Exception {
        String body = Api.callOk(Api.post("/file/upload", token, declaration(size, sha256)));
        Map<String, String> headers = new TreeMap<>();
        int start = body.indexOf("\"upload_headers\":{");
        Matcher m = HEADER.matcher(body.substring(start + 17, body.indexOf('}', start)));
        while (m.find()) {
            headers.put(m.group(1), m.group(2));
        }
        return new Ticket(Long.parseLong(Json.field(body, "file_id")), Json.field(body, "upload_url"), headers);
    }

    /** The client's PUT to the object store, with the signed headers (Content-Length comes from the body). */
    private static void put(Ticket ticket, HttpRequest.BodyPublisher body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(ticket.url()))
                .timeout(Api.REQUEST_TIMEOUT.multipliedBy(10)).PUT(body);
        ticket.headers().forEach((name, value) -> {
            if (!name.equalsIgnoreCase("content-length")) {
                request.header(name, value);
            }
        });
        HttpResponse<String> response = Api.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("PUT to the object store: HTTP " + response.statusCode() + " "
                    + Json.abbreviate(response.body()));
        }
    }

    private static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code size} pseudo-random bytes from {@code seed}, made as they are read (never all in memory). */
    private static final class Generated extends InputStream {

        private final SplittableRandom random;
        private long left;

        Generated(long seed, long size) {
            random = new SplittableRandom(seed);
            left = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            // byte by byte, so that any read sizes give the same stream
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) random.nextInt(256);
            }
            left -= n;
            return n;
        }
    }

    /** The highest VmRSS of a process, sampled every 20 ms on a thread of its own. */
    private static final class RssPeak {

        private final AtomicLong peak = new AtomicLong();
        private final Thread sampler;
        private volatile boolean running = true;

        RssPeak(long pid) {
            sampler = new Thread(() -> {
                while (running) {
                    try {
                        peak.accumulateAndGet(ProcessStatus.rssKb(pid), Math::max);
                        Thread.sleep(20);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            }, "rss-sampler");
            sampler.start();
        }

        /** The peak so far; sampling goes on from zero. */
        long reset() {
            return peak.getAndSet(0);
        }

        long stop() throws InterruptedException {
            running = false;
            sampler.join();
            return peak.get();
        }
    }
}
