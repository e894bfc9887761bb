package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.WorkerConfig;
import io.micrometer.core.instrument.Counter;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The one pool of threads that sends the batches of every channel ({@code im.push.worker.senders}), and the timer
 * behind its waits. A batch holds a thread only while it works or waits for a provider's answer: its waits (retry
 * backoff, Retry-After, rate pacing, another worker's claim) are {@link #after timed continuations}, so a channel
 * that is backing off or paced leaves the threads to the others. Each channel has at most batches-in-flight batches
 * here (its consumer's poll), so a provider that stops answering holds at most that many threads; the pool has
 * more than that (docs/push-worker.md "Threads").
 *
 * <p>The CPU time of each piece of work is counted for its channel ({@code imcore_push_worker_sender_cpu_seconds_total}):
 * the threads are shared, so their names no longer say which channel spent it.
 */
@ApplicationScoped
public class SenderPool {

    private static final Logger LOG = Logger.getLogger(SenderPool.class);

    private final ExecutorService threads;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "push-sender-timer");
        t.setDaemon(true);
        return t;
    });
    private final Set<CompletableFuture<Void>> waits = ConcurrentHashMap.newKeySet();
    private final ThreadMXBean cpuClock = ManagementFactory.getThreadMXBean();
    private final boolean cpuCounted;
    private final Map<Channel, Counter> cpu = new EnumMap<>(Channel.class);
    private volatile boolean stopping;

    public SenderPool(WorkerConfig config, WorkerMetrics metrics) {
        int size = config.senders();
        if (size <= config.batchesInFlight() && config.channels().size() > 1) {
            LOG.warnf("im.push.worker.senders (%d) is not above batches-in-flight (%d): one channel whose provider"
                    + " stops answering can hold every sender thread", size, config.batchesInFlight());
        }
        AtomicInteger numbers = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(size, r -> {
            Thread t = new Thread(r, "push-sender-" + numbers.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.cpuCounted = cpuClock.isCurrentThreadCpuTimeSupported();
        for (Channel channel : Channel.values()) {
            cpu.put(channel, Counter.builder("imcore.push.worker.sender.cpu").baseUnit("seconds")
                    .tag("channel", channel.wireName())
                    .description("CPU time of the sender threads spent on this channel's batches")
                    .register(metrics.registry()));
        }
    }

    /** A batch left unfinished because the worker is stopping: it is not counted and its record is read again. */
    static final class Abandoned extends RuntimeException {
        Abandoned() {
            super("stopping", null, false, false);
        }
    }

    /**
     * Runs {@code work} on a sender thread, its CPU time counted for {@code channel}. Anything it throws goes to
     * {@code onFailure}, and so does the refusal of a pool that is shutting down ({@link Abandoned}).
     */
    void execute(Channel channel, Runnable work, Consumer<Throwable> onFailure) {
        try {
            threads.execute(() -> {
                long started = cpuCounted ? cpuClock.getCurrentThreadCpuTime() : 0;
                try {
                    work.run();
                } catch (Throwable e) {
                    onFailure.accept(e);
                } finally {
                    if (cpuCounted) {
                        cpu.get(channel).increment((cpuClock.getCurrentThreadCpuTime() - started) / 1e9);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            onFailure.accept(new Abandoned());
        }
    }

    /**
     * Completes after {@code delay} on a sender thread, its work counted for {@code channel}, no thread held
     * meanwhile: what is chained to it (without an executor) runs there. When the worker stops first, it completes
     * at once with {@link Abandoned} instead.
     */
    CompletableFuture<Void> after(Duration delay, Channel channel) {
        CompletableFuture<Void> wait = new CompletableFuture<>();
        waits.add(wait);
        // added before the check: stop() either sees this wait or this check sees stopping
        if (stopping) {
            wait.completeExceptionally(new Abandoned());
        } else {
            timer.schedule(() -> wait.complete(null), delay.toNanos(), TimeUnit.NANOSECONDS);
        }
        CompletableFuture<Void> resumed = new CompletableFuture<>();
        wait.whenComplete((done, abandoned) -> {
            waits.remove(wait);
            if (abandoned != null) {
                resumed.completeExceptionally(abandoned);
            } else {
                execute(channel, () -> resumed.complete(null), resumed::completeExceptionally);
            }
        });
        return resumed;
    }

    /**
     * Completes like {@code answer} (a group commit's, completed on its committer's thread), on a sender thread with
     * its work counted for {@code channel}: what is chained to it runs there and leaves the committer to commit.
     */
    <T> CompletableFuture<T> resume(CompletableFuture<T> answer, Channel channel) {
        CompletableFuture<T> resumed = new CompletableFuture<>();
        answer.whenComplete((value, failure) -> execute(channel, () -> {
            if (failure != null) {
                resumed.completeExceptionally(failure);
            } else {
                resumed.complete(value);
            }
        }, resumed::completeExceptionally));
        return resumed;
    }

    /** From now on nothing waits: every pending and later wait ends in {@link Abandoned}. */
    void stop() {
        stopping = true;
        for (CompletableFuture<Void> wait : waits) {
            wait.completeExceptionally(new Abandoned());
        }
    }

    /** After the consumers are done: work submitted from now on is refused (abandoned). */
    void close() {
        stop();
        timer.shutdownNow();
        threads.shutdown();
    }
}
