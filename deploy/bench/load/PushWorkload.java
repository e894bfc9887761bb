// The push workload (deploy/bench/push.sh runs it against an app with push on; ADMIN_TOKEN is that app's):
//   push-accept  n (300) POST /push/notify, audience all, c (4) clients, after warmup_n (20) uncounted calls;
//                each task is scheduled a day ahead (show_begin_time), so none is expanded (push.sh expires them).
//                The RESULT line is named after where (default: via BASE_URL)
//   push-expand  one POST /push/notify, audience all, due at once; polls POST /push/task/detail every 100 ms
//                until the task leaves expansion (dispatching or done), samples push-service's VmRSS every 200 ms,
//                and meanwhile (after accept_delay s) runs push-accept's load (accept_n, accept_c): accept latency
//                while the expansion runs. Prints EXPAND|..., RSS|push-service|..., CPU|push-expand|... and the
//                accepts' RESULT line (progress every 2 s to stderr); gives up after timeout (600) s

import java.io.IOException;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

final class PushWorkload {

    static final String[] PUSH_CHANNELS = {"ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d", "vendor_e",
        "svcpush"};

    private PushWorkload() {}

    /** A text push to every device of the app; due at once, or scheduled a day ahead (never expanded here). */
    static String pushAllJson(boolean scheduled) {
        String begin = scheduled ? ",\"show_begin_time\":" + (System.currentTimeMillis() / 1000 + 86_400) : "";
        return "{\"audience\":\"all\",\"setting\":{},\"message\":{\"type\":\"text\",\"title\":\"bench\","
                + "\"body\":\"push benchmark: one text message to every device of the app\"" + begin + "}}";
    }

    /** n scheduled audience-all tasks at concurrency c. */
    static Results.Outcome acceptLoad(int c, long warmupN, long n) throws InterruptedException {
        LoadClient client = LoadClient.forWorkers(c);
        Object notify = client.prepare("POST", "/push/notify", Options.env("ADMIN_TOKEN"), pushAllJson(true));
        return Loops.countLoop(c, warmupN, n, (w, i) -> Results.check(client.send(w, notify), 200, "\"task_id\""));
    }

    /** The RESULT line's name: where names where BASE_URL points. */
    static String acceptName(int c, long n, String where) {
        return "push accept: POST /push/notify audience all, " + n + " calls, c=" + c + ", " + where;
    }

    static void accept() throws Exception {
        int c = Options.getInt("c", 4);
        long n = Options.getInt("n", 300);
        Results.Outcome o = acceptLoad(c, Options.getInt("warmup_n", 20), n);
        Results.report(acceptName(c, n, Options.get("where", "via " + Api.baseUrl)), o, Results.clientNote(o));
    }

    static void expand() throws Exception {
        String admin = Options.env("ADMIN_TOKEN");
        long pid = ProcessStatus.pid(Options.pidsDir().resolve("push-service.pid"));
        double timeoutS = Options.getDouble("timeout", 600);
        int acceptC = Options.getInt("accept_c", 4);
        long acceptN = Options.getInt("accept_n", 300);
        double acceptDelayS = Options.getDouble("accept_delay", 2);

        long rssStart = ProcessStatus.rssKb(pid);
        AtomicLong rssMax = new AtomicLong(rssStart);
        AtomicLong rssSamples = new AtomicLong();
        AtomicLong rssLast = new AtomicLong(rssStart);
        Thread rssSampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    long kb = ProcessStatus.rssKb(pid);
                    rssLast.set(kb);
                    rssMax.accumulateAndGet(kb, Math::max);
                    rssSamples.incrementAndGet();
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (IOException e) {
                    Results.noteError("rss: " + e.getMessage());
                    return;
                }
            }
        }, "rss");
        rssSampler.setDaemon(true);

        rssSampler.start();
        long t0 = System.nanoTime();
        String accepted = Api.callOk(Api.post("/push/notify", admin, pushAllJson(false)));
        long tAccepted = System.nanoTime();
        CpuSample cpuStart = CpuSample.take(); // the CPU window is the expansion's: from the accept to the end
        long taskId = Long.parseLong(Json.field(accepted, "task_id"));
        System.err.printf(Locale.ROOT, "push-expand: task %d accepted in %.1f ms%n", taskId, (tAccepted - t0) / 1e6);

        Results.Outcome[] underLoad = new Results.Outcome[1];
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

        HttpRequest detail = Api.post("/push/task/detail", admin, "{\"list\":[" + taskId + "]}");
        String body;
        String state;
        long firstProgress = 0;
        long polls = 0;
        long lastPrint = tAccepted;
        while (true) {
            long pollAt = System.nanoTime();
            body = Api.callOk(detail);
            polls++;
            state = Json.field(body, "state");
            long expanded = Long.parseLong(Json.field(body, "devices_expanded"));
            if (firstProgress == 0 && expanded > 0) {
                firstProgress = pollAt;
            }
            if (!"accepted".equals(state) && !"expanding".equals(state)) {
                break;
            }
            if (pollAt - lastPrint > 2_000_000_000L) {
                lastPrint = pollAt;
                System.err.printf(Locale.ROOT, "push-expand: %.1f s, %s, %d devices, %d batches, rss %d MiB%n",
                        (pollAt - tAccepted) / 1e9, state, expanded,
                        Long.parseLong(Json.field(body, "batches_total")), rssLast.get() / 1024);
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
            long t = Long.parseLong(Json.field(body, channel + "_target"));
            targetSum += t;
            targets.append(targets.length() == 0 ? "" : ",").append(channel).append('=').append(t);
        }
        System.out.printf(Locale.ROOT, "EXPAND|%d|%.2f|%s|%s|%s|%d|%s|%.2f|%d%n", taskId, (tEnd - tAccepted) / 1e9,
                state, Json.field(body, "devices_expanded"), Json.field(body, "batches_total"), targetSum, targets,
                firstProgress == 0 ? Double.NaN : (firstProgress - tAccepted) / 1e9, polls);
        System.out.printf(Locale.ROOT, "RSS|push-service|%.1f|%.1f|%.1f|%d%n", rssStart / 1024.0,
                rssMax.get() / 1024.0, rssLast.get() / 1024.0, rssSamples.get());
        System.out.println(CpuSample.line("push-expand", cpuStart, cpuEnd));
        if (acceptN > 0) {
            Results.Outcome o = underLoad[0] != null ? underLoad[0]
                    : new Results.Outcome(0, Double.NaN, Double.NaN, Double.NaN, 0, 0);
            Results.report(acceptName(acceptC, acceptN, Options.get("where", "via " + Api.baseUrl)
                    + ", during the expansion"), o, Results.clientNote(o));
        } else {
            Results.printErrorKinds("push-expand: ");
        }
    }
}
