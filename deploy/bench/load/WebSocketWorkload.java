// The WebSocket workload: idle authenticated connections and what they cost message-service.
//   ws-idle  conns (2000) authenticated WebSockets on /ws (BenchUsers' pairs users x devices), c (50) connecting at
//            a time, held hold (20) s, with message-service's VmRSS (pidfile: its pid file) before and while they
//            are open. Prints a RESULT line (connect + auth latency) with the CPU and COST lines of the connects,
//            and two RSS|message-service|... lines.

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

final class WebSocketWorkload {

    private WebSocketWorkload() {}

    static void idle() throws Exception {
        BenchUsers s = BenchUsers.load();
        int conns = Options.getInt("conns", 2000);
        int inFlight = Options.getInt("c", 50);
        double hold = Options.getDouble("hold", 20);
        long pid = ProcessStatus.pid(Path.of(Options.get("pidfile",
                Options.localDir().resolve("pids/message-service.pid").toString())));
        URI uri = LiveDevice.uri();
        long rssBefore = ProcessStatus.rssKb(pid);
        int threadsBefore = ProcessStatus.threads(pid);

        // LiveSocket, one blocking socket per connection opened from a virtual thread: java.net.http's WebSocket
        // opened ~290/s on its one selector thread, half the rate message-service accepts (docs/benchmarks.md)
        LiveSocket[] devices = new LiveSocket[conns];
        Results.Recorder recorder = new Results.Recorder();
        Semaphore permits = new Semaphore(inFlight);
        CountDownLatch done = new CountDownLatch(conns);
        CpuSample connectsFrom = CpuSample.take();
        long started = System.nanoTime();
        try (ExecutorService connecting = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int k = 0; k < conns; k++) {
                int device = k;
                String authFrame = LiveDevice.authFrame(s.tokens()[k % s.pairs()], k / s.pairs() + 1);
                permits.acquire();
                connecting.submit(() -> {
                    long t0 = System.nanoTime();
                    String error = null;
                    try {
                        devices[device] = new LiveSocket(uri, authFrame, (socket, frame, arrived) -> {},
                                "ws-idle-" + device);
                        devices[device].authed.get(30, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        error = String.valueOf(e.getCause() != null ? e.getCause() : e);
                    }
                    long t1 = System.nanoTime();
                    synchronized (recorder) {
                        recorder.note(error, t1 - t0);
                    }
                    permits.release();
                    done.countDown();
                });
            }
            done.await();
        }
        double openSeconds = (System.nanoTime() - started) / 1e9;
        // the CPU and COST lines cover the connects (upgrade, auth frame, presence), not the hold or the closes
        Results.cpuWindow = new CpuSample[] {connectsFrom, CpuSample.take()};
        long rssOpen = ProcessStatus.rssKb(pid);
        int authed = recorder.size;
        Results.Outcome o = Results.outcome(new Results.Recorder[] {recorder}, openSeconds);

        // hold: ping every 30 s (the server closes connections silent for im.message.live-idle-timeout, 90 s)
        long holdEnd = System.nanoTime() + (long) (hold * 1e9);
        long nextPing = System.nanoTime() + 30_000_000_000L;
        long rssMax = rssOpen;
        while (System.nanoTime() < holdEnd) {
            Thread.sleep(Math.min(1000, Math.max(1, (holdEnd - System.nanoTime()) / 1_000_000)));
            rssMax = Math.max(rssMax, ProcessStatus.rssKb(pid));
            if (System.nanoTime() >= nextPing) {
                for (LiveSocket d : devices) {
                    if (authenticated(d) && !d.closed) {
                        d.sendText("{\"type\":\"ping\"}");
                    }
                }
                nextPing += 30_000_000_000L;
            }
        }
        long rssHeld = ProcessStatus.rssKb(pid);
        rssMax = Math.max(rssMax, rssHeld);
        int threadsHeld = ProcessStatus.threads(pid);
        int open = 0;
        Map<String, Integer> closeReasons = new LinkedHashMap<>();
        for (LiveSocket d : devices) {
            if (authenticated(d) && !d.closed) {
                open++;
            } else if (authenticated(d)) {
                closeReasons.merge(String.valueOf(d.closeReason), 1, Integer::sum);
            }
        }
        if (!closeReasons.isEmpty()) {
            System.err.println("ws-idle: authenticated connections closed during the hold: " + closeReasons);
        }
        Results.report("WebSocket connect + auth, " + conns + " connections (" + s.pairs() + " users x "
                + ((conns + s.pairs() - 1) / s.pairs()) + " devices), " + inFlight + " in flight", o,
                String.format(Locale.ROOT, "%d authenticated, %d still open after %.0f s", authed, open, hold));
        System.out.printf(Locale.ROOT, "RSS|message-service|0 connections|%.1f MiB|threads %d%n", rssBefore / 1024.0,
                threadsBefore);
        System.out.printf(Locale.ROOT, "RSS|message-service|%d connections after %.0f s|%.1f MiB|threads %d, "
                + "max during hold %.1f MiB%n", open, hold, rssHeld / 1024.0, threadsHeld, rssMax / 1024.0);

        // close them all, politely (each waits for the server's close frame), so the server clears presence
        try (ExecutorService closing = Executors.newVirtualThreadPerTaskExecutor()) {
            for (LiveSocket d : devices) {
                if (d != null) {
                    closing.submit(d::close);
                }
            }
        }
        System.out.flush();
    }

    private static boolean authenticated(LiveSocket d) {
        return d != null && d.authed.isDone() && !d.authed.isCompletedExceptionally();
    }
}
