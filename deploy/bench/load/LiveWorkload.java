// The live workload: 1:1 sends to recipients holding a WebSocket, timed from the send to the recipient's `message`
// frame (docs/live-protocol.md), so the live path (presence look-up in the send, NOTIFY to the holding replica, its
// read of the message and the frame write) is measured, on one replica or several.
//   send-live  c (100) of BenchUsers' pairs (the setup phase first): each peer connects one device (device_sn 1,
//              LiveSocket) straight to a replica's port, peer w to ws_ports[w % n] (ws_ports: comma-separated ports
//              of the replicas, the gateway's own upstream first; without it, the gateway's /ws); when all are
//              authenticated, sender w sends to peer w through the gateway, closed loop (c workers), warmup (3) s
//              then duration (20) s. Each message's content names its worker and iteration ("live W I"): its frame
//              is matched to its send, and the time from the send's start to the frame's arrival is recorded. The
//              device acks each message frame as a client does (ack=1; ack=0 sends none). After the loop, grace
//              (10) s for the last frames and ack answers; the frames still missing then are reported, never dropped.
//              The peers' tokens are kept in <local_dir>/bench/live-state.properties and reused while they work.
// Prints RESULT (the sends) with its CPU and COST lines, RESULT (send to frame), and LIVE|key=value|... for message.sh.

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

final class LiveWorkload {

    private LiveWorkload() {}

    /** What one run counts, beside the recorders. */
    static final class Counts {
        final AtomicLong unexpected = new AtomicLong(); // message frames matching no pending send
        final AtomicLong warmupFrames = new AtomicLong();
        final AtomicLong acksSent = new AtomicLong();
        final AtomicLong acksOk = new AtomicLong();
        final AtomicLong ackErrors = new AtomicLong();
        final AtomicLong otherFrames = new AtomicLong();
        final AtomicLong[] measuredSent; // successful sends started in the measured window, per worker
        volatile long measureFrom = Long.MAX_VALUE; // System.nanoTime() of the measured window's start

        Counts(int c) {
            measuredSent = new AtomicLong[c];
            for (int w = 0; w < c; w++) {
                measuredSent[w] = new AtomicLong();
            }
        }
    }

    static void sendLive() throws Exception {
        BenchUsers s = BenchUsers.load();
        int c = Math.min(Options.getInt("c", 100), s.pairs());
        boolean ack = !"0".equals(Options.get("ack", "1"));
        double grace = Options.getDouble("grace", 10);
        int[] ports = Arrays.stream(Options.get("ws_ports", "").split(",")).filter(p -> !p.isBlank())
                .mapToInt(p -> Integer.parseInt(p.trim())).toArray();
        String[] peerTokens = peerTokens(s);

        // ---- connect the recipients, half on each replica (peer w on ports[w % n]) -------------------------------
        long[] peers = Arrays.copyOf(s.peers(), c);
        LiveSocket[] devices = new LiveSocket[c];
        Results.Recorder[] frameTimes = new Results.Recorder[c];
        ConcurrentHashMap<Long, Long> pending = new ConcurrentHashMap<>(); // worker << 32 | iteration -> start
        Counts counts = new Counts(c);
        List<String> connectErrors = new ArrayList<>();
        for (int w = 0; w < c; w++) {
            frameTimes[w] = new Results.Recorder();
            Results.Recorder times = frameTimes[w];
            URI uri = ports.length == 0 ? LiveDevice.uri()
                    : URI.create("ws://" + URI.create(Api.baseUrl).getHost() + ":" + ports[w % ports.length] + "/ws");
            try {
                devices[w] = new LiveSocket(uri, LiveDevice.authFrame(peerTokens[w], 1),
                        (socket, frame, arrived) -> onFrame(socket, frame, arrived, pending, times, counts, ack),
                        "live-" + w);
            } catch (IOException e) {
                connectErrors.add(uri + ": " + e);
            }
        }
        for (LiveSocket d : devices) {
            try {
                if (d != null) {
                    d.authed.get(30, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                connectErrors.add(String.valueOf(e.getCause() != null ? e.getCause() : e));
            }
        }
        if (!connectErrors.isEmpty()) {
            closeAll(devices);
            throw new IllegalStateException(connectErrors.size() + " of " + c + " recipients did not connect, e.g. "
                    + connectErrors.get(0));
        }
        System.err.printf(Locale.ROOT, "send-live: %d recipients connected on %s%n", c,
                ports.length == 0 ? "the gateway" : "ports " + Arrays.toString(ports));

        // ---- closed-loop sends through the gateway -------------------------------------------------------------
        LoadClient client = LoadClient.forWorkers(c);
        long begin = System.nanoTime() + 50_000_000L;
        long from = begin + (long) (MessageWorkload.warmup() * 1e9);
        counts.measureFrom = from;
        Results.Outcome sends = Loops.closedLoop(c, begin, MessageWorkload.warmup(), MessageWorkload.duration(),
                (w, i) -> {
                    long key = ((long) w << 32) | i;
                    Object send = client.prepare("POST", "/message/send", s.tokens()[w],
                            "{\"content_type\":0,\"content\":\"live " + w + " " + i + "\",\"targets\":[" + peers[w]
                                    + "],\"type\":1}");
                    long t0 = System.nanoTime();
                    pending.put(key, t0);
                    String error;
                    try {
                        error = Results.check(client.send(w, send), 200, MessageWorkload.SENT);
                    } catch (Exception e) {
                        pending.remove(key);
                        throw e;
                    }
                    if (error != null) {
                        pending.remove(key); // no frame expected (one that comes anyway counts as unexpected)
                    } else if (t0 >= from) {
                        counts.measuredSent[w].incrementAndGet();
                    }
                    return error;
                });
        CpuSample[] window = Results.cpuWindow;

        // ---- grace: the last frames and ack answers ------------------------------------------------------------
        long graceEnd = System.nanoTime() + (long) (grace * 1e9);
        while (System.nanoTime() < graceEnd && (!pending.isEmpty()
                || (ack && counts.acksOk.get() + counts.ackErrors.get() < counts.acksSent.get()))) {
            Thread.sleep(20);
        }
        long missingMeasured = 0;
        long missingTotal = 0;
        for (long t0 : pending.values().toArray(Long[]::new)) {
            missingTotal++;
            if (t0 >= from) {
                missingMeasured++;
            }
        }
        int closed = 0;
        for (LiveSocket d : devices) {
            closed += d.closed ? 1 : 0;
        }

        // ---- report --------------------------------------------------------------------------------------------
        long measured = 0;
        for (AtomicLong n : counts.measuredSent) {
            measured += n.get();
        }
        double duration = MessageWorkload.duration();
        // the listeners add under each recorder's lock (a frame may still come): copies taken under it
        Results.Recorder[] taken = new Results.Recorder[c];
        List<Results.Recorder> sameReplica = new ArrayList<>();
        List<Results.Recorder> otherReplica = new ArrayList<>();
        for (int w = 0; w < c; w++) {
            taken[w] = new Results.Recorder();
            synchronized (frameTimes[w]) {
                taken[w].values = Arrays.copyOf(frameTimes[w].values, Math.max(1, frameTimes[w].size));
                taken[w].size = frameTimes[w].size;
            }
            (w % Math.max(1, ports.length) == 0 ? sameReplica : otherReplica).add(taken[w]);
        }
        Results.Outcome frames = Results.outcome(taken, duration);
        Results.Outcome same = Results.outcome(sameReplica.toArray(Results.Recorder[]::new), duration);
        Results.Outcome other = Results.outcome(otherReplica.toArray(Results.Recorder[]::new), duration);
        String replicas = "";
        if (window != null && window[0] != null && !window[0].ticks.isEmpty()) {
            replicas = String.format(Locale.ROOT, "; message-service replicas %.2f + %.2f cores",
                    CpuSample.fileCores("message-service", window[0], window[1]),
                    CpuSample.fileCores("message-service-2", window[0], window[1]));
        }
        String where = ports.length == 0 ? "the gateway" : ports.length == 1 ? "1 replica"
                : ports.length + " replicas";
        Results.report("1:1 send to live recipients, closed loop, c=" + c + " (recipients on " + where + ")", sends,
                Results.clientNote(sends) + replicas);
        String otherNote = ports.length > 1 ? String.format(Locale.ROOT,
                "; p99 recipient on the sends' replica %.1f ms, on another %.1f ms", same.p99Ms(), other.p99Ms()) : "";
        System.out.printf(Locale.ROOT, "RESULT|send to frame, recipients on %s%s|%.1f|%.1f|%.1f|%d|%d|max %.1f ms%s; "
                        + "missing %d (warm-up included %d) after %.0f s grace; unexpected %d; acks %d sent, %d ok, "
                        + "%d failed; connections closed %d%n",
                where, ports.length == 0 ? "" : " (ws_ports " + Options.get("ws_ports", "") + ")",
                frames.opsPerSecond(), frames.p50Ms(), frames.p99Ms(), missingMeasured, measured, frames.maxMs(),
                otherNote, missingMeasured, missingTotal, grace, counts.unexpected.get(), counts.acksSent.get(),
                counts.acksOk.get(), counts.ackErrors.get(), closed);
        System.out.printf(Locale.ROOT, "LIVE|c=%d|replicas=%d|sent_per_s=%.1f|send_p50_ms=%.1f|send_p99_ms=%.1f"
                        + "|send_errors=%d|frame_p50_ms=%.1f|frame_p99_ms=%.1f|frame_max_ms=%.1f|measured=%d|framed=%d"
                        + "|missing=%d|missing_total=%d|unexpected=%d|ack_errors=%d|closed=%d|same_p99_ms=%.1f"
                        + "|other_p99_ms=%s%n",
                c, Math.max(1, ports.length), sends.opsPerSecond(), sends.p50Ms(), sends.p99Ms(), sends.errors(),
                frames.p50Ms(), frames.p99Ms(), frames.maxMs(), measured, frames.count(), missingMeasured,
                missingTotal, counts.unexpected.get(), counts.ackErrors.get(), closed, same.p99Ms(),
                otherReplica.isEmpty() ? "nan" : String.format(Locale.ROOT, "%.1f", other.p99Ms()));
        if (counts.otherFrames.get() > 0) {
            System.err.println("send-live: " + counts.otherFrames.get() + " frames of other types (errors by kind)");
        }
        Results.printErrorKinds("send-live: ");
        System.out.flush();
        closeAll(devices);
    }

    /** A frame on device d (its listener thread): a message frame is matched, timed and acked; an ack counted. */
    static void onFrame(LiveSocket d, String frame, long arrived, ConcurrentHashMap<Long, Long> pending,
            Results.Recorder times, Counts counts, boolean ack) {
        String type = Json.field(frame, "type");
        if ("message".equals(type)) {
            Long t0 = null;
            String content = Json.field(frame, "content");
            String[] wi = content == null ? new String[0] : content.split(" ");
            if (wi.length == 3 && wi[0].equals("live") && wi[1].matches("[0-9]+") && wi[2].matches("[0-9]+")) {
                t0 = pending.remove((Long.parseLong(wi[1]) << 32) | Long.parseLong(wi[2]));
            }
            if (t0 == null) {
                counts.unexpected.incrementAndGet();
            } else if (t0 >= counts.measureFrom) {
                synchronized (times) {
                    times.add(arrived - t0);
                }
            } else {
                counts.warmupFrames.incrementAndGet();
            }
            if (ack) {
                counts.acksSent.incrementAndGet();
                try {
                    d.sendText("{\"type\":\"ack\",\"conversation_id\":" + Json.field(frame, "conversation_id")
                            + ",\"msg_id\":" + Json.field(frame, "msg_id") + "}");
                } catch (IOException e) {
                    counts.ackErrors.incrementAndGet();
                    Results.noteError("ack not sent: " + e);
                }
            }
        } else if ("ack".equals(type)) {
            if (Json.code(frame) == 200) {
                counts.acksOk.incrementAndGet();
            } else {
                counts.ackErrors.incrementAndGet();
                Results.noteError("ack answered " + Json.abbreviate(frame));
            }
        } else {
            counts.otherFrames.incrementAndGet();
            Results.noteError("frame " + Json.abbreviate(frame));
        }
    }

    /** Closes every device: a close frame each, then up to 5 s for the server's answer (LiveSocket.close). */
    static void closeAll(LiveSocket[] devices) throws InterruptedException {
        List<Thread> closing = new ArrayList<>();
        for (LiveSocket d : devices) {
            if (d != null) {
                Thread t = new Thread(d::close, "close");
                t.start();
                closing.add(t);
            }
        }
        for (Thread t : closing) {
            t.join();
        }
    }

    /** One token per peer of BenchUsers (the live state file's while they work, else new ones: bcrypt, seconds). */
    static String[] peerTokens(BenchUsers s) throws Exception {
        Path path = Options.localDir().resolve("bench/live-state.properties");
        if (Files.exists(path)) {
            Properties p = StateFile.read(path);
            String[] tokens = new String[s.pairs()];
            boolean same = Api.appId.equals(p.getProperty("app_id"));
            for (int i = 0; same && i < s.pairs(); i++) {
                same = String.valueOf(s.peers()[i]).equals(p.getProperty("peer." + i));
                tokens[i] = p.getProperty("token." + i);
                same = same && tokens[i] != null;
            }
            if (same) {
                try {
                    for (int i : new int[] {0, s.pairs() - 1}) {
                        Api.callOk(Api.get("/user/device/list", tokens[i]));
                    }
                    return tokens;
                } catch (Exception e) {
                    System.err.println("send-live: peer tokens not reusable (" + e.getMessage() + "): new ones");
                }
            }
        }
        long started = System.nanoTime();
        String[] tokens = BenchUsers.tokensFor(s.peers());
        Properties p = new Properties();
        p.setProperty("app_id", Api.appId);
        for (int i = 0; i < s.pairs(); i++) {
            p.setProperty("peer." + i, String.valueOf(s.peers()[i]));
            p.setProperty("token." + i, tokens[i]);
        }
        StateFile.write(path, p, "deploy/bench/load send-live: the peers' tokens (secrets!)");
        System.err.printf(Locale.ROOT, "send-live: %d peer tokens (%.1f s)%n", tokens.length,
                (System.nanoTime() - started) / 1e9);
        return tokens;
    }
}
