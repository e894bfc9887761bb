// The offline push workload (deploy/bench/message.sh PHASES=offline-push runs it; docs/benchmarks.md "Offline push
// of messages"). Options as the other workloads' (duration, warmup, client), plus simulator_port (SIMULATOR_PORT,
// 18441: the provider simulators, APNs first, Huawei..Meizu at +2..+6). The senders are BenchUsers' (the setup
// phase must have run).
//   offline-setup  recipients (1000) users, each logged in from a phone (POST /token/id with a device_guid) and with
//                  a phone-maker token bound to demo-vendor_a .. demo-vendor_e in turn (up.sh's certificates at the
//                  simulators), never connected; 9 more users for the group's live members; a group of 500: sender
//                  0, 490 recipients, the 9. Kept in <local_dir>/bench/offline-push-state.properties (offline_state)
//                  and reused while it works (force=1 makes new users)
//   offline-rate   1:1 text sends at rate (1000/s) per second, open loop (workers=100 connections), send i from
//                  sender (i / recipients) % senders to recipient i % recipients: a recipient gets one message per
//                  recipients/rate s, each of another conversation, so none is superseded. Each send's answer time
//                  is kept by i. With push=1 (default) it then waits until the simulators have every measured
//                  message (drain, 180 s at most, or drain_idle 10 s without progress), reads each measured send's
//                  msg_id back (the newest message of its conversation, content checked) and prints the time from
//                  the send's answer to the simulator's first accepted notification for it (GET /_sim/received),
//                  and where the time went for trace_sample (200) of them (TRACE|...).
//                  push=0: only the sends (for a stack whose message-service runs with offline push off)
//   offline-group  n (5) messages of sender 0 to the group, one at a time, while the 9 live members hold a
//                  WebSocket each: per message, the time from the send's answer until the simulators accepted the
//                  notifications of all 490 offline members (and of the first); gives up after group_timeout (30) s
// Output: RESULT|... and CPU|... lines (Results), and OFFLINE|send-on or send-off|..., OFFLINE|push|... and
// OFFLINE|group|... lines that message.sh checks the targets with.

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class OfflinePushWorkload {

    static final String[] VENDORS = {"vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e"};
    static final int GROUP_SIZE = 500;
    static final int LIVE_MEMBERS = 9;
    static final int OFFLINE_MEMBERS = GROUP_SIZE - 1 - LIVE_MEMBERS; // 490

    private OfflinePushWorkload() {}

    // ---- state ---------------------------------------------------------------------------------------------

    /** The recipients (each with one phone and a token), the live members with their tokens, the group. */
    record State(long sender0, long[] recipients, long[] live, String[] liveTokens, long groupId) {}

    static Path statePath() {
        return Path.of(Options.get("offline_state",
                Options.localDir().resolve("bench/offline-push-state.properties").toString()));
    }

    static State loadState() throws IOException {
        Properties p = StateFile.read(statePath());
        if (!Api.appId.equals(p.getProperty("app_id"))) {
            throw new IllegalStateException(statePath() + " belongs to another app: run offline-setup again");
        }
        long[] recipients = Arrays.stream(p.getProperty("recipients").split(",")).mapToLong(Long::parseLong).toArray();
        long[] live = Arrays.stream(p.getProperty("live").split(",")).mapToLong(Long::parseLong).toArray();
        String[] liveTokens = p.getProperty("live_tokens").split(",");
        return new State(Long.parseLong(p.getProperty("sender0")), recipients, live, liveTokens,
                Long.parseLong(p.getProperty("group_id")));
    }

    static void saveState(State s) throws IOException {
        Properties p = new Properties();
        p.setProperty("app_id", Api.appId);
        p.setProperty("sender0", String.valueOf(s.sender0()));
        p.setProperty("recipients", join(s.recipients()));
        p.setProperty("live", join(s.live()));
        p.setProperty("live_tokens", String.join(",", s.liveTokens()));
        p.setProperty("group_id", String.valueOf(s.groupId()));
        StateFile.write(statePath(), p,
                "deploy/bench/load offline-setup: recipients, live members (tokens: secrets!), group");
    }

    static String join(long[] ids) {
        StringBuilder b = new StringBuilder();
        for (long id : ids) {
            b.append(b.length() == 0 ? "" : ",").append(id);
        }
        return b.toString();
    }

    // ---- setup ---------------------------------------------------------------------------------------------

    static void setup() throws Exception {
        int n = Options.getInt("recipients", 1000);
        if (n < OFFLINE_MEMBERS) {
            throw new IllegalArgumentException("recipients must be at least " + OFFLINE_MEMBERS);
        }
        BenchUsers senders = BenchUsers.load();
        long started = System.nanoTime();
        State reused = reusable(senders, n);
        if (reused != null) {
            System.out.printf(Locale.ROOT, "RESULT|offline-setup|%d recipients, group %d|%.1f s|reused %s%n", n,
                    reused.groupId(), (System.nanoTime() - started) / 1e9, statePath());
            return;
        }
        String adminToken = Options.env("ADMIN_TOKEN");
        String prefix = "op" + Long.toString(System.currentTimeMillis(), 36);
        long[] recipients = BenchUsers.register(adminToken, prefix + "_r", n);
        long[] live = BenchUsers.register(adminToken, prefix + "_l", LIVE_MEMBERS);
        System.err.printf(Locale.ROOT, "offline-setup: registered %d users (%.1f s)%n", n + LIVE_MEMBERS,
                (System.nanoTime() - started) / 1e9);
        // each recipient: a token for a phone (device_guid), then that device's provider token
        AtomicInteger done = new AtomicInteger();
        BenchUsers.inParallel(8, n, k -> {
            try {
                String login = Api.callOk(Api.post("/token/id", null, "{\"user_id\":"
                        + recipients[k] + ",\"password\":\"" + BenchUsers.PASSWORD
                        + "\",\"device_guid\":\"" + prefix + "-phone-" + k + "\"}"));
                String token = Json.field(login, "token");
                String sn = Json.field(login, "device_sn");
                String vendor = VENDORS[k % VENDORS.length];
                // long enough for every maker's format (Huawei's tokens are 100+ characters)
                String deviceToken = prefix + "-" + vendor + "-" + k + "-" + "0123456789abcdef".repeat(8);
                String bound = Api.callOk(Api.post("/user/token/bind", token,
                        "{\"device_sn\":" + sn + ",\"device_token\":\"" + deviceToken
                                + "\",\"notifier_name\":\"demo-" + vendor + "\"}"));
                if (!bound.contains("\"data\":true")) {
                    throw new IOException("bind answered " + Json.abbreviate(bound));
                }
                if (done.incrementAndGet() % 200 == 0) {
                    System.err.printf(Locale.ROOT, "offline-setup: %d phones bound (%.1f s)%n", done.get(),
                            (System.nanoTime() - started) / 1e9);
                }
            } catch (Exception e) {
                throw new IllegalStateException("recipient " + recipients[k] + ": " + e.getMessage(), e);
            }
        });
        String[] liveTokens = BenchUsers.tokensFor(live);
        long[] members = new long[GROUP_SIZE];
        members[0] = senders.senders()[0];
        System.arraycopy(recipients, 0, members, 1, OFFLINE_MEMBERS);
        System.arraycopy(live, 0, members, 1 + OFFLINE_MEMBERS, LIVE_MEMBERS);
        String answer = Api.callOk(Api.post("/group/create", senders.tokens()[0],
                "{\"name\":\"offline-push-" + GROUP_SIZE + "\",\"user_list\":" + Json.ids(members, 0, GROUP_SIZE)
                        + "}"));
        long groupId = Long.parseLong(Json.field(answer, "group_id"));
        if (!String.valueOf(GROUP_SIZE).equals(Json.field(answer, "member_count"))) {
            throw new IllegalStateException("group: " + Json.abbreviate(answer));
        }
        State s = new State(senders.senders()[0], recipients, live, liveTokens, groupId);
        saveState(s);
        System.out.printf(Locale.ROOT, "RESULT|offline-setup|%d recipients, group %d|%.1f s|new users %s_*%n", n,
                groupId, (System.nanoTime() - started) / 1e9, prefix);
    }

    static State reusable(BenchUsers senders, int n) {
        if (!"0".equals(Options.get("force", "0")) || !Files.exists(statePath())) {
            return null;
        }
        try {
            State s = loadState();
            if (s.recipients().length != n || s.sender0() != senders.senders()[0]) {
                return null;
            }
            Api.callOk(Api.get("/user/device/list", s.liveTokens()[0]));
            String info = Api.callOk(Api.get("/group/info?group_id=" + s.groupId(), senders.tokens()[0]));
            return String.valueOf(GROUP_SIZE).equals(Json.field(info, "member_count")) ? s : null;
        } catch (Exception e) {
            System.err.println("offline-setup: state not reusable (" + e.getMessage() + "): creating new users");
            return null;
        }
    }

    // ---- the simulators' receive times ---------------------------------------------------------------------

    record Received(long first, long last, int deliveries) {}

    static final Pattern RECEIVED = Pattern.compile(
            "\\{\"msg_id\":\"(\\d+)\",\"first\":(\\d+),\"last\":(\\d+),\"deliveries\":(\\d+)\\}");

    /** msg_id -> receive times, over the five phone makers' simulators, of messages first accepted since then. */
    static Map<Long, Received> received(long sinceMillis) throws Exception {
        int base = Options.getInt("simulator_port", 18441);
        Map<Long, Received> out = new HashMap<>();
        for (int v = 0; v < VENDORS.length; v++) {
            HttpResponse<String> r = Api.http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + (base + 2 + v) + "/_sim/received?since=" + sinceMillis))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(VENDORS[v] + " simulator: HTTP " + r.statusCode() + " " + r.body());
            }
            Matcher m = RECEIVED.matcher(r.body());
            while (m.find()) {
                Received got = new Received(Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                        Integer.parseInt(m.group(4)));
                out.merge(Long.parseLong(m.group(1)), got, (a, b) -> new Received(Math.min(a.first, b.first),
                        Math.max(a.last, b.last), a.deliveries + b.deliveries));
            }
        }
        return out;
    }

    // ---- 1:1 sends to offline recipients at a fixed rate ---------------------------------------------------

    static double epochMillis(long nanos, long baseNanos, long baseMillis) {
        return baseMillis + (nanos - baseNanos) / 1e6;
    }

    static void rate() throws Exception {
        State st = loadState();
        BenchUsers ms = BenchUsers.load();
        double rate = Options.getDouble("rate", 1000);
        int workers = Options.getInt("workers", 100);
        double warmup = Options.getDouble("warmup", 3);
        double duration = Options.getDouble("duration", 20);
        boolean push = !"0".equals(Options.get("push", "1"));
        int r = st.recipients().length;
        int senders = ms.pairs();
        long warmupCount = (long) (warmup * rate);
        int total = (int) (warmupCount + (long) (duration * rate));
        String tag = "op" + Long.toString(System.currentTimeMillis(), 36);
        long baseNanos = System.nanoTime();
        long baseMillis = System.currentTimeMillis();
        double[] answeredAt = new double[total];
        LoadClient client = LoadClient.forWorkers(workers);
        long since = System.currentTimeMillis() - 1;
        CpuSample cpuStart = CpuSample.take();
        Loops.OpenOutcome open = Loops.openLoop(rate, workers, warmup, duration, (w, i) -> {
            int k = (int) i;
            int sender = (int) ((i / r) % senders);
            long recipient = st.recipients()[k % r];
            Object send = client.prepare("POST", "/message/send", ms.tokens()[sender],
                    "{\"content_type\":0,\"content\":\"" + tag + " " + k + "\",\"targets\":[" + recipient
                            + "],\"type\":1}");
            String error = Results.check(client.send(w, send), 200, MessageWorkload.SENT);
            answeredAt[k] = error == null ? epochMillis(System.nanoTime(), baseNanos, baseMillis) : -1;
            return error;
        });
        Results.Outcome o = open.outcome();
        String onOff = push ? "offline push on" : "offline push off";
        Results.report(String.format(Locale.ROOT,
                "1:1 send to %d offline recipients, open loop at %.0f/s (%s)", r, rate, onOff), o,
                Results.clientNote(o) + String.format(Locale.ROOT,
                        "; latency from the scheduled time (p99 of its parts: start %.1f ms late, answer %.1f ms)",
                        open.lateP99Ms(), open.answerP99Ms()));
        System.out.printf(Locale.ROOT, "OFFLINE|send-%s|sent_per_s=%.1f|send_p50_ms=%.1f|send_p99_ms=%.1f%n",
                push ? "on" : "off", o.opsPerSecond(), o.p50Ms(), o.p99Ms());
        if (!push) {
            return;
        }

        // wait for the notifications of the measured sends
        int measured = total - (int) warmupCount;
        long drainEnd = System.nanoTime() + (long) (Options.getDouble("drain", 180) * 1e9);
        long idleNanos = (long) (Options.getDouble("drain_idle", 10) * 1e9);
        int seen = -1;
        long lastProgress = System.nanoTime();
        Map<Long, Received> got;
        while (true) {
            got = received(since);
            if (got.size() > seen) {
                seen = got.size();
                lastProgress = System.nanoTime();
            }
            if (seen >= total || System.nanoTime() > drainEnd || System.nanoTime() - lastProgress > idleNanos) {
                break;
            }
            Thread.sleep(500);
        }
        CpuSample cpuEnd = CpuSample.take();
        System.out.println(CpuSample.line(Options.phase + " (sends and their pushes, until "
                + "the last notification)", cpuStart, cpuEnd));
        System.err.printf(Locale.ROOT, "offline-rate: simulators have %d messages of %d sent%n", seen, total);

        // each measured send's msg_id: the newest message of its conversation, as its sender sees it
        long[] msgIds = new long[total];
        Arrays.fill(msgIds, -1);
        int readers = 16;
        LoadClient reader = LoadClient.forWorkers(readers);
        Results.Outcome reads = Loops.countLoop(readers, 0, measured, (w, j) -> {
            int k = (int) (warmupCount + j);
            int sender = (int) ((k / r) % senders);
            LoadClient.Reply reply = reader.send(w, reader.prepare("GET", "/message/conversation?opposite_id="
                    + st.recipients()[k % r] + "&limit=1", ms.tokens()[sender], null));
            String error = Results.check(reply, 200, tag + " " + k + "\"");
            if (error != null) {
                return error;
            }
            Matcher m = MSG_ID.matcher(reply.body());
            if (!m.find()) {
                return "no msg_id in " + Json.abbreviate(reply.body());
            }
            msgIds[k] = Long.parseLong(m.group(1));
            return null;
        });
        if (reads.errors() > 0) {
            System.err.println("offline-rate: " + reads.errors() + " msg_ids not read back");
            Results.printErrorKinds("  ");
        }
        long[] latencies = new long[measured];
        double firstAnswer = Double.MAX_VALUE;
        long lastNotified = 0;
        int n = 0;
        int notDelivered = 0;
        int notAnswered = 0;
        for (int k = (int) warmupCount; k < total; k++) {
            if (answeredAt[k] < 0 || msgIds[k] < 0) {
                notAnswered++;
                continue;
            }
            Received rec = got.get(msgIds[k]);
            if (rec == null) {
                notDelivered++;
                continue;
            }
            // µs, so that percentiles keep the sub-millisecond part of the answer time
            latencies[n++] = Math.round((rec.first() - answeredAt[k]) * 1000);
            firstAnswer = Math.min(firstAnswer, answeredAt[k]);
            lastNotified = Math.max(lastNotified, rec.first());
        }
        long[] sorted = Arrays.copyOf(latencies, n);
        Arrays.sort(sorted);
        double p50 = Results.percentile(sorted, 50) / 1000.0;
        double p99 = Results.percentile(sorted, 99) / 1000.0;
        double max = n == 0 ? Double.NaN : sorted[n - 1] / 1000.0;
        long min = n == 0 ? 0 : sorted[0];
        System.out.printf(Locale.ROOT, "RESULT|offline push: send answer to the simulator's notification (1:1 at %.0f/s)"
                + "|%.1f|%.1f|%.1f|%d|%d|%d of %d measured sends notified, %d not, %d not answered or not read back;"
                + " max %.1f ms, min %.1f ms (ops/s column: notified per second, first measured answer to last notification)%n",
                rate, n == 0 ? 0 : n / Math.max(0.001, (lastNotified - firstAnswer) / 1000), p50, p99, notDelivered + notAnswered, measured, n, measured, notDelivered,
                notAnswered, max, min / 1000.0);
        traceSplit(st, ms, msgIds, answeredAt, (int) warmupCount, total, got);
        System.out.printf(Locale.ROOT, "OFFLINE|push|push_p50_ms=%.1f|push_p99_ms=%.1f|push_max_ms=%.1f|notified=%d"
                + "|measured=%d%n", p50, p99, max, n, measured);
        System.out.flush();
    }

    /** The first msg_id of an answer: in a conversation page, its newest message's. */
    static final Pattern MSG_ID = Pattern.compile("\"msg_id\":(\\d+)");

    static final Pattern TRACE_ROW = Pattern.compile("\"decided_at\":(\\d+),\"sent_at\":(\\d+|null)");

    /** {decided_at, sent_at} of each device row of the message's trace (GET /push/offline/trace, admin). */
    static List<long[]> trace(long msgId) throws Exception {
        String body = Api.callOk(Api.get("/push/offline/trace?msg_id=" + msgId,
                Options.env("ADMIN_TOKEN")));
        List<long[]> rows = new ArrayList<>();
        Matcher m = TRACE_ROW.matcher(body);
        while (m.find()) {
            rows.add(new long[] {Long.parseLong(m.group(1)), "null".equals(m.group(2)) ? -1 : Long.parseLong(m.group(2))});
        }
        return rows;
    }

    /**
     * Where the time went, for trace_sample (200) measured sends spread over the window: send answer to
     * push-service's decision (message-service's publisher, the outbox relay, message.events, push-service's
     * consumer and its transaction), decision to push-worker's sent (the channel record, push-worker's poll and
     * claim, the provider's answer), and sent to the simulator's receive (negative: the simulator notes the
     * delivery before it answers). TRACE| line with p50/p99 of each, ms.
     */
    static void traceSplit(State st, BenchUsers ms, long[] msgIds, double[] answeredAt, int from, int total,
            Map<Long, Received> got) throws Exception {
        int sample = Options.getInt("trace_sample", 200);
        if (sample <= 0) {
            return;
        }
        List<Long> decided = new ArrayList<>();
        List<Long> sent = new ArrayList<>();
        int step = Math.max(1, (total - from) / sample);
        for (int k = from; k < total; k += step) {
            if (msgIds[k] < 0 || answeredAt[k] < 0) {
                continue;
            }
            for (long[] row : trace(msgIds[k])) {
                decided.add(Math.round((row[0] - answeredAt[k]) * 1000));
                if (row[1] >= 0) {
                    sent.add((row[1] - row[0]) * 1000);
                }
            }
        }
        long[] d = decided.stream().mapToLong(Long::longValue).sorted().toArray();
        long[] t = sent.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(Locale.ROOT, "TRACE|%d sampled sends|answer to push-service's decision p50 %.1f p99 %.1f max %.1f ms"
                + "|decision to push-worker's sent p50 %.1f p99 %.1f max %.1f ms%n", d.length,
                Results.percentile(d, 50) / 1000.0, Results.percentile(d, 99) / 1000.0,
                d.length == 0 ? Double.NaN : d[d.length - 1] / 1000.0, Results.percentile(t, 50) / 1000.0,
                Results.percentile(t, 99) / 1000.0, t.length == 0 ? Double.NaN : t[t.length - 1] / 1000.0);
    }

    // ---- one message to the 500-member group -----------------------------------------------------------------

    static void group() throws Exception {
        State st = loadState();
        BenchUsers ms = BenchUsers.load();
        int count = Options.getInt("n", 5);
        double timeoutS = Options.getDouble("group_timeout", 30);
        // the live members: one authenticated WebSocket each (they get the message frame, not a push)
        URI uri = LiveDevice.uri();
        HttpClient wsClient = Api.newHttpClient();
        List<LiveDevice> devices = new ArrayList<>();
        for (String token : st.liveTokens()) {
            LiveDevice d = new LiveDevice(token, 1);
            wsClient.newWebSocketBuilder().buildAsync(uri, d);
            devices.add(d);
        }
        for (LiveDevice d : devices) {
            d.authed.get(30, TimeUnit.SECONDS);
        }
        Thread.sleep(1000); // presence reaches message-service's view
        String tag = "og" + Long.toString(System.currentTimeMillis(), 36);
        long[] allMs = new long[count];
        List<String> notes = new ArrayList<>();
        int complete = 0;
        CpuSample cpuStart = CpuSample.take();
        for (int k = 0; k < count; k++) {
            long since = System.currentTimeMillis() - 1;
            String content = tag + " " + k;
            long t0 = System.nanoTime();
            long t0Millis = System.currentTimeMillis();
            Api.callOk(Api.post("/message/send", ms.tokens()[0], "{\"content_type\":0,\"content\":\""
                    + content + "\",\"targets\":[" + st.groupId() + "],\"type\":2}"));
            double answered = epochMillis(System.nanoTime(), t0, t0Millis);
            double sendMs = (System.nanoTime() - t0) / 1e6;
            String page = Api.callOk(Api.get("/message/conversation?opposite_id=" + st.groupId()
                    + "&limit=1", ms.tokens()[0]));
            Matcher m = MSG_ID.matcher(page);
            if (!page.contains(content + "\"") || !m.find()) {
                throw new IllegalStateException("group message not read back: " + Json.abbreviate(page));
            }
            long msgId = Long.parseLong(m.group(1));
            long deadline = System.nanoTime() + (long) (timeoutS * 1e9);
            Received rec = null;
            while (System.nanoTime() < deadline) {
                rec = received(since).get(msgId);
                if (rec != null && rec.deliveries() >= OFFLINE_MEMBERS) {
                    break;
                }
                Thread.sleep(20);
            }
            if (rec != null && rec.deliveries() >= OFFLINE_MEMBERS) {
                complete++;
            }
            allMs[k] = rec == null ? -1 : Math.round(rec.last() - answered);
            long lastDecided = 0;
            long lastSent = 0;
            for (long[] row : trace(msgId)) {
                lastDecided = Math.max(lastDecided, row[0]);
                lastSent = Math.max(lastSent, row[1]);
            }
            notes.add(String.format(Locale.ROOT, "#%d: %s of %d in %s ms (first %s ms, all decided at %d ms, "
                    + "last sent at %d ms; send %.1f ms)", k + 1,
                    rec == null ? 0 : rec.deliveries(), OFFLINE_MEMBERS, rec == null ? "-" : allMs[k],
                    rec == null ? "-" : Math.round(rec.first() - answered), Math.round(lastDecided - answered),
                    Math.round(lastSent - answered), sendMs));
            Thread.sleep(1000);
        }
        CpuSample cpuEnd = CpuSample.take();
        for (LiveDevice d : devices) {
            if (d.open()) {
                d.socket.abort();
            }
        }
        long[] sorted = Arrays.stream(allMs).filter(v -> v >= 0).sorted().toArray();
        System.out.printf(Locale.ROOT, "RESULT|offline push: group of %d, %d offline members, all notified|%d of %d|"
                + "%.0f|%.0f|%d|%d|ms from the send's answer to the last of the %d notifications (p50 and max); %s%n",
                GROUP_SIZE, OFFLINE_MEMBERS, complete, count, (double) Results.percentile(sorted, 50),
                sorted.length == 0 ? Double.NaN : (double) sorted[sorted.length - 1], count - complete, count,
                OFFLINE_MEMBERS, String.join("; ", notes));
        System.out.println(CpuSample.line(Options.phase, cpuStart, cpuEnd));
        System.out.printf(Locale.ROOT, "OFFLINE|group|complete=%d|n=%d|p50_ms=%d|max_ms=%d%n", complete, count,
                Results.percentile(sorted, 50), sorted.length == 0 ? -1 : sorted[sorted.length - 1]);
        System.out.flush();
    }
}
