// What the load loops record and how a phase prints it. Latencies (successes only) are kept one by one and the
// percentiles are exact (nearest rank); throughput counts successes. Every answer is HTTP 200 with the envelope: an
// operation counts as an error unless its code is the expected one.
// A load phase prints RESULT|name|ops/s|p50 ms|p99 ms|errors|measured operations|notes, then the CPU line of its
// measured window (CpuSample.line) and COST|name|µs: the whole stack's CPU per operation (its processes summed,
// the generator and the simulators left out); deploy/bench/message.sh and push.sh read these lines.

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

final class Results {

    private Results() {}

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

        /** One operation: its latency when it succeeded (error null), else one more error, its kind noted. */
        void note(String error, long nanos) {
            if (error == null) {
                add(nanos);
            } else {
                errors++;
                noteError(error);
            }
        }
    }

    record Outcome(double opsPerSecond, double p50Ms, double p99Ms, double maxMs, long errors, long count) {}

    /** The CPU samples at the start and the end of the last measured window; the next report prints them. */
    static CpuSample[] cpuWindow;

    private static final Map<String, AtomicLong> ERROR_KINDS = new ConcurrentHashMap<>();

    static void noteError(String what) {
        String kind = what.length() > 200 ? what.substring(0, 200) : what;
        if (ERROR_KINDS.size() < 50 || ERROR_KINDS.containsKey(kind)) {
            ERROR_KINDS.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }
    }

    /** The errors noted so far, one "PREFIX count x kind" line each to stderr, then forgotten. */
    static void printErrorKinds(String prefix) {
        ERROR_KINDS.forEach((k, v) -> System.err.println(prefix + v.get() + " x " + k));
        ERROR_KINDS.clear();
    }

    /** Checks the envelope of an answer: HTTP 200 and the expected code (and text), else the error text. */
    static String check(LoadClient.Reply reply, int expectedCode, String mustContain) {
        if (reply.status() != 200) {
            return "HTTP " + reply.status();
        }
        String body = reply.body();
        if (Json.code(body) != expectedCode) {
            return "code " + Json.code(body) + ": " + Json.abbreviate(body);
        }
        if (mustContain != null && !body.contains(mustContain)) {
            return "answer lacks " + mustContain + ": " + Json.abbreviate(body);
        }
        return null;
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

    /** The RESULT line, the CPU line of the measured window, and the errors by kind (stderr). */
    static void report(String name, Outcome o, String notes) {
        System.out.printf(Locale.ROOT, "RESULT|%s|%.1f|%.1f|%.1f|%d|%d|%s%n", name, o.opsPerSecond, o.p50Ms, o.p99Ms,
                o.errors, o.count, notes == null ? "" : notes);
        if (cpuWindow != null) {
            System.out.println(CpuSample.line(Options.phase, cpuWindow[0], cpuWindow[1]));
            if (o.opsPerSecond > 0 && !cpuWindow[0].ticks.isEmpty()) {
                System.out.printf(Locale.ROOT, "COST|%s|%.0f%n", name,
                        1e6 * CpuSample.stackCores(cpuWindow[0], cpuWindow[1]) / o.opsPerSecond);
            }
            cpuWindow = null;
        }
        if (!ERROR_KINDS.isEmpty()) {
            System.err.println(name + ": errors by kind:");
            printErrorKinds("  ");
        }
        System.out.flush();
    }

    /** The notes of a load phase's RESULT line: the slowest operation and the client. */
    static String clientNote(Outcome o) {
        return String.format(Locale.ROOT, "max %.1f ms; client %s", o.maxMs, Options.get("client", "raw"));
    }

    /** clientNote, and where an open loop's latency went. */
    static String openLoopNote(Loops.OpenOutcome open) {
        return clientNote(open.outcome()) + String.format(Locale.ROOT,
                "; latency from the scheduled time (p99 of its parts: start %.1f ms late, answer %.1f ms)",
                open.lateP99Ms(), open.answerP99Ms());
    }
}
