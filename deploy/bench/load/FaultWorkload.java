// The fault suite's workload (deploy/chaos/run.sh runs it; docs/reliability.md), on BenchUsers' users:
//   chaos-send   1:1 sends at rate (20/s) for duration s (or until a file exists), open loop, each with its own
//                timeout; every answer (or non-answer) logged to out, one line per send, tagged so chaos-verify
//                can find the messages. Prints CHAOS-SEND|tag|sends|{outcome=count, ...}
//   chaos-verify every send of out answered 200 must be readable in its conversation (no acknowledged loss).
//                Prints VERIFY|tag|acknowledged|lost|stored without acknowledgement|duplicates

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class FaultWorkload {

    private FaultWorkload() {}

    static Path sendsLog() {
        return Path.of(Options.get("out", Options.localDir().resolve("chaos/sends.log").toString()));
    }

    /**
     * chaos-send: 1:1 text sends at `rate` (20/s) for `duration` (30) s or until the file `until` exists, open
     * loop: each send is started at its due time whatever the earlier ones are doing (a stopped service must not
     * slow the load down), with its own `timeout` (10 s), so the phase ends at most `timeout` after the last
     * send started. Send SEQ of pair P carries the text
     * "chaos TAG SEQ" and writes a line "start_ms end_ms P SEQ OUTCOME" to `out`; OUTCOME is the envelope's code, or
     * timeout, refused, io, http-NNN or not-envelope when the answer was no envelope at all.
     */
    static void send() throws Exception {
        BenchUsers s = BenchUsers.load();
        String tag = Options.get("tag", "untagged");
        double rate = Options.getDouble("rate", 20);
        long total = (long) (rate * Options.getDouble("duration", 30));
        Duration timeout = Duration.ofMillis((long) (Options.getDouble("timeout", 10) * 1000));
        String untilFile = Options.get("until", "");
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
            HttpRequest send = Api.request("/message/send", s.tokens()[pair]).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"content_type\":0,\"content\":\"chaos " + tag + " "
                            + seq + "\",\"targets\":[" + s.peers()[pair] + "],\"type\":1}"))
                    .build();
            long startMs = System.currentTimeMillis();
            sends.add(Api.http.sendAsync(send, HttpResponse.BodyHandlers.ofString())
                    .orTimeout(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS)
                    .handle((response, error) -> {
                        lines[seq] = startMs + " " + System.currentTimeMillis() + " " + pair + " " + seq + " "
                                + outcome(response, error);
                        return null;
                    }));
        }
        CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).join();
        Path out = sendsLog();
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
    static String outcome(HttpResponse<String> response, Throwable error) {
        Throwable cause = error instanceof CompletionException ? error.getCause() : error;
        if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
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
        return envelope && Json.code(body) > 0 ? String.valueOf(Json.code(body)) : "not-envelope";
    }

    /**
     * chaos-verify: every send of the chaos-send log `out` that was answered 200 must be readable in its
     * conversation. Reads each pair's conversation from the newest message back to the first send of the log
     * (pages of 100, each page retried for up to `retry` (60) s). Prints VERIFY|tag|acknowledged|lost|stored
     * without acknowledgement|duplicates, and the lost sequence numbers to stderr.
     */
    static void verify() throws Exception {
        BenchUsers s = BenchUsers.load();
        String tag = Options.get("tag", "untagged");
        List<String> lines = Files.readAllLines(sendsLog());
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
        long retryMs = (long) (Options.getDouble("retry", 60) * 1000);
        List<Integer> lost = new ArrayList<>();
        int storedUnacked = 0;
        int duplicates = 0;
        for (int pair = 0; pair < s.pairs(); pair++) {
            Set<Integer> want = acked.getOrDefault(pair, Set.of());
            Set<Integer> seen = new HashSet<>();
            String start = "0";
            while (true) {
                String page = page("/message/conversation?limit=100&opposite_id=" + s.peers()[pair]
                        + "&msg_id_start=" + start, s.tokens()[pair], retryMs);
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
                if ("true".equals(Json.field(page, "is_last")) || oldest < firstStartMs - 5000) {
                    break;
                }
                start = Json.field(page, "next_msg_id");
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
    static String page(String path, String token, long retryMs) throws Exception {
        long deadline = System.currentTimeMillis() + retryMs;
        while (true) {
            try {
                return Api.callOk(Api.get(path, token));
            } catch (IOException e) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("GET " + path + " kept failing for " + retryMs + " ms: " + e.getMessage(), e);
                }
                Thread.sleep(1000);
            }
        }
    }
}
