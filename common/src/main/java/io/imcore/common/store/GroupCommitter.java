package io.imcore.common.store;

import io.micrometer.core.instrument.DistributionSummary;
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
import org.jboss.logging.Logger;

/**
 * Group commit of small writes that each used to wait for a commit of their own (presence changes, delivery acks):
 * callers queue an item and get a future; one thread stores whatever is queued, up to {@code maxBatch}, in one
 * transaction and completes each future after that commit. Nothing waits for a batch to fill: while one commit runs
 * the next batch queues up, so a lone item goes at once and a burst costs one commit per batch.
 * <p>
 * Items with the same {@code key} never share a batch (one statement cannot update a row twice): a repeated one waits
 * for the next batch, in order. A batch that fails is retried one item per transaction, so a bad item fails only its
 * own caller. Before {@link #start} and after {@link #stop} an item is stored alone, off the caller's thread.
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

    private record Pending<T, R>(T item, CompletableFuture<R> answer) {}

    private static final Logger LOG = Logger.getLogger(GroupCommitter.class);

    private final String name;
    private final Database database;
    private final int maxBatch;
    private final Function<T, Object> key;
    private final BatchStore<T, R> store;
    private final DistributionSummary batchSizes;
    private final BlockingQueue<Pending<T, R>> queue = new LinkedBlockingQueue<>();
    private Thread thread;
    private volatile boolean running;

    /** {@code name} names the thread; {@code batchSizes} records the items of each commit. */
    public GroupCommitter(String name, Database database, int maxBatch, Function<T, Object> key,
            BatchStore<T, R> store, DistributionSummary batchSizes) {
        this.name = name;
        this.database = database;
        this.maxBatch = maxBatch;
        this.key = key;
        this.store = store;
        this.batchSizes = batchSizes;
    }

    public void start() {
        running = true;
        thread = new Thread(this::commitLoop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Commits what is queued (10 s at most); later items are stored alone. */
    public void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(10_000);
        }
        for (Pending<T, R> late; (late = queue.poll()) != null; ) { // queued as the loop ended
            commitAlone(late);
        }
    }

    /** Queues the item for the next commit; the future completes after it, or exceptionally with its failure. */
    public CompletableFuture<R> submit(T item) {
        Pending<T, R> pending = new Pending<>(item, new CompletableFuture<>());
        if (running) {
            queue.add(pending);
        } else { // no committer thread; the caller may be an event loop
            CompletableFuture.runAsync(() -> commitAlone(pending));
        }
        return pending.answer();
    }

    private void commitLoop() {
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
            boolean repeated = !seen.add(key.apply(pending.item()));
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
        List<R> answers;
        try {
            answers = database.inTransaction(c -> store.store(c, batch.stream().map(Pending::item).toList()));
        } catch (RuntimeException e) {
            LOG.debugf("%s: a group commit of %d items failed, each is committed alone: %s", name, batch.size(),
                    e.toString());
            batch.forEach(this::commitAlone);
            return;
        }
        batchSizes.record(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).answer().complete(answers.get(i));
        }
    }

    private void commitAlone(Pending<T, R> pending) {
        try {
            R answer = database.inTransaction(c -> store.store(c, List.of(pending.item()))).get(0);
            batchSizes.record(1);
            pending.answer().complete(answer);
        } catch (RuntimeException e) {
            pending.answer().completeExceptionally(e);
        }
    }
}
