// The load shapes: closed loop (c workers, each sends when its previous request answered), open loop (requests due
// at a fixed rate, latency from the due time) and fixed count. Each worker thread records into its own Recorder.

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

final class Loops {

    private Loops() {}

    /** One operation; returns null on success, else what went wrong (counted as an error). */
    interface Op {
        String run(int worker, long iteration) throws Exception;
    }

    /**
     * An open loop's latencies, and their two parts: {@code lateP99Ms}, how late a send started after its due time
     * (no free worker, or this generator itself late), and {@code answerP99Ms}, from its start to its answer.
     */
    record OpenOutcome(Results.Outcome outcome, double lateP99Ms, double answerP99Ms) {}

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

    /** Waits for the workers; the CPU window (Results.cpuWindow) runs from {@code measureFrom} to their end. */
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
        Results.cpuWindow = new CpuSample[] {window[0], CpuSample.take()};
    }

    /**
     * Closed loop: c workers, each sends its next request when the previous one answered. Requests that start in
     * the measured window (after warmup) count; throughput = their successes / duration.
     */
    static Results.Outcome closedLoop(int c, double warmupS, double durationS, Op op) throws InterruptedException {
        return closedLoop(c, System.nanoTime() + 50_000_000L, warmupS, durationS, op);
    }

    /**
     * closedLoop with its start given (System.nanoTime()): the measured window is begin + warmupS to begin +
     * warmupS + durationS, for a caller that times more than the answers (send-live: the frames).
     */
    static Results.Outcome closedLoop(int c, long begin, double warmupS, double durationS, Op op)
            throws InterruptedException {
        Results.Recorder[] recorders = new Results.Recorder[c];
        long measureFrom = begin + (long) (warmupS * 1e9);
        long end = measureFrom + (long) (durationS * 1e9);
        Thread[] threads = new Thread[c];
        for (int w = 0; w < c; w++) {
            int worker = w;
            Results.Recorder r = recorders[w] = new Results.Recorder();
            threads[w] = new Thread(() -> {
                LockSupport.parkNanos(begin - System.nanoTime());
                long iteration = 0;
                long t0;
                while ((t0 = System.nanoTime()) < end) {
                    String error = attempt(op, worker, iteration++);
                    long t1 = System.nanoTime();
                    if (t0 >= measureFrom) {
                        r.note(error, t1 - t0);
                    }
                }
            }, "closed-" + w);
            threads[w].start();
        }
        awaitMeasuring(threads, measureFrom);
        return Results.outcome(recorders, durationS);
    }

    /**
     * Open loop: request i is due at start + i / rate; a fixed pool of workers takes the next due request, waits
     * for its time if early, sends it, and records the latency from the due time: a late worker (all busy, a
     * slow answer) shows in the latency instead of silently lowering the rate (no coordinated omission).
     */
    static OpenOutcome openLoop(double rate, int workers, double warmupS, double durationS, Op op)
            throws InterruptedException {
        Results.Recorder[] recorders = new Results.Recorder[workers];
        Results.Recorder[] late = new Results.Recorder[workers];
        Results.Recorder[] answers = new Results.Recorder[workers];
        long begin = System.nanoTime() + 50_000_000L;
        long warmupCount = (long) (warmupS * rate);
        long total = warmupCount + (long) (durationS * rate);
        AtomicLong next = new AtomicLong();
        AtomicLong lastDone = new AtomicLong();
        Thread[] threads = new Thread[workers];
        for (int w = 0; w < workers; w++) {
            int worker = w;
            Results.Recorder r = recorders[w] = new Results.Recorder();
            Results.Recorder lateness = late[w] = new Results.Recorder();
            Results.Recorder answer = answers[w] = new Results.Recorder();
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
                        r.note(error, done - due);
                        if (error == null) {
                            lateness.add(now - due);
                            answer.add(done - now);
                        }
                    }
                }
            }, "open-" + w);
            threads[w].start();
        }
        long measureFrom = begin + (long) (warmupCount * 1e9 / rate);
        awaitMeasuring(threads, measureFrom);
        double elapsed = Math.max(durationS, (lastDone.get() - measureFrom) / 1e9);
        return new OpenOutcome(Results.outcome(recorders, elapsed), Results.outcome(late, elapsed).p99Ms(),
                Results.outcome(answers, elapsed).p99Ms());
    }

    /**
     * Fixed count: c workers share n operations (each takes the next when its previous one answered), after
     * warmupN operations that are run but not counted; throughput = successes / time of the counted ones.
     */
    static Results.Outcome countLoop(int c, long warmupN, long n, Op op) throws InterruptedException {
        Results.Recorder[] recorders = new Results.Recorder[c];
        AtomicLong next = new AtomicLong();
        AtomicLong firstCounted = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastDone = new AtomicLong();
        Thread[] threads = new Thread[c];
        CpuSample[] window = new CpuSample[1];
        for (int w = 0; w < c; w++) {
            int worker = w;
            Results.Recorder r = recorders[w] = new Results.Recorder();
            threads[w] = new Thread(() -> {
                long i;
                while ((i = next.getAndIncrement()) < warmupN + n) {
                    if (i == warmupN) {
                        window[0] = CpuSample.take(); // the first counted operation opens the CPU window
                    }
                    long t0 = System.nanoTime();
                    String error = attempt(op, worker, i);
                    long t1 = System.nanoTime();
                    if (i >= warmupN) {
                        firstCounted.accumulateAndGet(t0, Math::min);
                        lastDone.accumulateAndGet(t1, Math::max);
                        r.note(error, t1 - t0);
                    }
                }
            }, "count-" + w);
            threads[w].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (window[0] != null) {
            Results.cpuWindow = new CpuSample[] {window[0], CpuSample.take()};
        }
        return Results.outcome(recorders, Math.max(1e-9, (lastDone.get() - firstCounted.get()) / 1e9));
    }
}
