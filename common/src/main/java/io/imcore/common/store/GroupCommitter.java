package io.imcore.common.store;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.jboss.logging.Logger;

/**
 * Group commit of small writes that each used to wait for a commit of their own (sends, presence changes, delivery
 * acks): callers queue an item and get a future; a committer thread stores whatever is queued for it, up to
 * {@code maxBatch}, in one transaction and completes each future after that commit. Nothing waits for a batch to
 * fill: while one commit runs the next batch queues up, so a lone item goes at once and a burst costs one commit per
 * batch.
 * <p>
 * With several threads, each has its own queue and an item goes to the one its {@code thread} number picks, so items
 * that touch the same rows (one conversation's sends) always share a thread and two batches never wait for each
 * other's rows. Items with the same {@code key} never share a batch (one statement cannot update a row twice): a
 * repeated one waits for the next batch, in order; an item whose key is null shares any batch. A batch that fails is
 * retried one item per transaction, so a bad item fails only its own caller. Before {@link #start} and after
 * {@link #stop} an item is stored alone, off the caller's thread.
 *
 * @param <T> what callers queue
 * @param <R> what each learns after the commit
 */
public final class GroupCommitter<T, R> {

    /** Stores a batch in the given transaction; returns one answer per item, in the batch's order. */
    @FunctionalInterface
    public interface BatchStore<T, R> {
        List<R> store(Connection c, List<T> batch) throws SQLException;
    }

    /**
     * What a batch's transaction stored: one answer per item, in the batch's order, and what runs once it commits,
     * on the committing thread, before the callers learn their answers (null: nothing), say announcing what it
     * stored.
     */
    public record Stored<R>(List<R> answers, Runnable afterCommit) {}

    /** A {@link BatchStore} whose batches have work to run after their commit. */
    @FunctionalInterface
    public interface BatchStoreWithAfterCommit<T, R> {
        Stored<R> store(Connection c, List<T> batch) throws SQLException;
    }

    /**
     * A committer's meters: the items of each commit; and, when not null, each item's wait from its queueing to the
     * start of its batch's transaction, and each commit's transaction from its first statement to its commit.
     */
    public record Meters(DistributionSummary batchSizes, Timer waits, Timer transactions) {}

    /** {@code queuedAt}: System.nanoTime() when the caller queued it (0 when no wait is timed). */
    private record Pending<T, R>(T item, CompletableFuture<R> answer, long queuedAt) {}

    private static final Logger LOG = Logger.getLogger(GroupCommitter.class);

    private final String name;
    private final int threads;
    private final ToIntFunction<T> thread;
    private final Database database;
    private final int maxBatch;
    private final Function<T, Object> key;
    private final BatchStoreWithAfterCommit<T, R> store;
    private final Meters meters;
    /** One queue per committer thread, made by {@link #start}. */
    private final List<BlockingQueue<Pending<T, R>>> queues = new ArrayList<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean running;

    /** One committer thread, named {@code name}; {@code batchSizes} records the items of each commit. */
    public GroupCommitter(String name, Database database, int maxBatch, Function<T, Object> key,
            BatchStore<T, R> store, DistributionSummary batchSizes) {
        this(name, 1, item -> 0, database, maxBatch, key, (c, batch) -> new Stored<>(store.store(c, batch), null),
                new Meters(batchSizes, null, null));
    }

    /**
     * {@code threads} committer threads, named {@code name-0}, {@code name-1}...: an item goes to the thread
     * {@code thread(item)} modulo {@code threads}.
     */
    public GroupCommitter(String name, int threads, ToIntFunction<T> thread, Database database, int maxBatch,
            Function<T, Object> key, BatchStoreWithAfterCommit<T, R> store, Meters meters) {
        this.name = name;
        this.threads = threads;
        this.thread = thread;
        this.database = database;
        this.maxBatch = maxBatch;
        this.key = key;
        this.store = store;
        this.meters = meters;
    }

    public void start() {
        for (int i = 0; i < threads; i++) {
            queues.add(new LinkedBlockingQueue<>());
        }
        running = true; // after the queues (a caller that sees it finds them all), before the threads (they loop on it)
        for (int i = 0; i < threads; i++) {
            BlockingQueue<Pending<T, R>> queue = queues.get(i);
            Thread committer = new Thread(() -> commitLoop(queue), threads == 1 ? name : name + "-" + i);
            committer.setDaemon(true);
            committer.start();
            committers.add(committer);
        }
    }

    /** Commits what is queued (10 s at most per thread); later items are stored alone. */
    public void stop() throws InterruptedException {
        running = false;
        for (Thread committer : committers) {
            committer.join(10_000);
        }
        for (BlockingQueue<Pending<T, R>> queue : queues) {
            for (Pending<T, R> late; (late = queue.poll()) != null; ) { // queued as the loop ended
                commitAlone(late);
            }
        }
    }

    /** Queues the item for the next commit; the future completes after it, or exceptionally with its failure. */
    public CompletableFuture<R> submit(T item) {
        Pending<T, R> pending = new Pending<>(item, new CompletableFuture<>(),
                meters.waits() == null ? 0 : System.nanoTime());
        if (running) {
            queues.get(Math.floorMod(thread.applyAsInt(item), queues.size())).add(pending);
        } else { // no committer thread; the caller may be an event loop
            CompletableFuture.runAsync(() -> commitAlone(pending));
        }
        return pending.answer();
    }

    /**
     * Stores the item now, alone, in a transaction of its own on the caller's thread, with the same store and
     * after-commit work as a batch (for an item too large to share a batch or to hold up a committer thread); not
     * counted by the meters, which describe group commits. Throws the store's failure.
     */
    public R storeNow(T item) {
        Stored<R> stored = database.inTransaction(c -> store.store(c, List.of(item)));
        afterCommit(stored);
        return stored.answers().get(0);
    }

    private void commitLoop(BlockingQueue<Pending<T, R>> queue) {
        List<Pending<T, R>> batch = new ArrayList<>(maxBatch);
        List<Pending<T, R>> deferred = new ArrayList<>();
        while (running || !queue.isEmpty() || !deferred.isEmpty()) {
            try {
                batch.addAll(deferred);
                deferred.clear();
                if (batch.isEmpty()) {
                    Pending<T, R> first = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                }
                queue.drainTo(batch, maxBatch - batch.size());
                deferRepeatedKeys(batch, deferred);
                if (meters.waits() != null) {
                    long now = System.nanoTime();
                    batch.forEach(p -> meters.waits().record(now - p.queuedAt(), TimeUnit.NANOSECONDS));
                }
                commitBatch(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deferred.forEach(p -> p.answer().completeExceptionally(e));
                return;
            } catch (RuntimeException | Error e) { // never leave a caller waiting, never lose the thread
                LOG.errorf(e, "%s: a group commit of %d items failed unexpectedly", name, batch.size());
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    /** Moves each item whose key an earlier item of the batch has to {@code deferred}, in order. */
    private void deferRepeatedKeys(List<Pending<T, R>> batch, List<Pending<T, R>> deferred) {
        Set<Object> seen = new HashSet<>();
        batch.removeIf(pending -> {
            Object itemKey = key.apply(pending.item());
            boolean repeated = itemKey != null && !seen.add(itemKey);
            if (repeated) {
                deferred.add(pending);
            }
            return repeated;
        });
    }

    private void commitBatch(List<Pending<T, R>> batch) {
        if (batch.size() == 1) {
            commitAlone(batch.get(0));
            return;
        }
        Stored<R> stored;
        try {
            stored = storeTimed(batch.stream().map(Pending::item).toList());
        } catch (RuntimeException e) {
            LOG.debugf("%s: a group commit of %d items failed, each is committed alone: %s", name, batch.size(),
                    e.toString());
            batch.forEach(this::commitAlone);
            return;
        }
        meters.batchSizes().record(batch.size());
        afterCommit(stored);
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).answer().complete(stored.answers().get(i));
        }
    }

    private void commitAlone(Pending<T, R> pending) {
        Stored<R> stored;
        try {
            stored = storeTimed(List.of(pending.item()));
        } catch (RuntimeException e) {
            pending.answer().completeExceptionally(e);
            return;
        }
        meters.batchSizes().record(1);
        afterCommit(stored);
        pending.answer().complete(stored.answers().get(0));
    }

    private Stored<R> storeTimed(List<T> items) {
        long start = System.nanoTime();
        Stored<R> stored = database.inTransaction(c -> store.store(c, items));
        if (meters.transactions() != null) {
            meters.transactions().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
        return stored;
    }

    /** The batch is committed whatever this work does: its failure is logged, and the callers get their answers. */
    private void afterCommit(Stored<R> stored) {
        if (stored.afterCommit() == null) {
            return;
        }
        try {
            stored.afterCommit().run();
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s: the work after a commit failed (the commit stands)", name);
        }
    }
}
