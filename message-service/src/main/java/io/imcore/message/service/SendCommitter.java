package io.imcore.message.service;

import io.imcore.common.store.Database;
import io.imcore.message.config.MessageConfig;
import io.imcore.message.live.LiveRouter;
import io.imcore.message.store.ConversationKind;
import io.imcore.message.store.ConversationStore;
import io.imcore.message.store.DedupStore;
import io.imcore.message.store.SendStore;
import io.imcore.message.store.SendStore.DirectMessage;
import io.imcore.message.store.SendStore.DirectPlaced;
import io.imcore.message.store.SendStore.Placed;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Group commit of 1:1 sends (docs/messages.md "Group commit"). Callers queue their message and wait; a few committer
 * threads each take whatever is queued (up to {@code im.message.send-commit.max-batch}) and store it in one
 * transaction: the transaction_id claims first, then one multi-row statement per round of distinct conversations
 * (a conversation's second message of the batch goes into the next round, so arrival order is kept), then the
 * commit. Each caller is answered after the commit that holds its message, so durability, the order within a
 * conversation and the de-duplication are those of a send alone. Nothing waits for a batch to fill: while one
 * commit runs the next batch queues up, so a lone send goes at once and a busy replica commits many per round trip.
 * A batch that fails is retried one message per transaction, so one bad message fails only its own caller.
 */
@ApplicationScoped
public class SendCommitter {

    private static final Logger LOG = Logger.getLogger(SendCommitter.class);

    /** A queued 1:1 message; {@code transactionId} null when the call has none to claim. */
    public record DirectSend(DirectMessage message, Long transactionId, String answer) {}

    private record Pending(DirectSend send, CompletableFuture<Optional<String>> answer) {}

    private final Database database;
    private final SendStore sends;
    private final DedupStore dedup;
    private final ConversationStore conversations;
    private final LiveRouter live;
    private final MessageConfig config;
    private final DistributionSummary batchSizes;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean running;

    public SendCommitter(Database database, SendStore sends, DedupStore dedup, ConversationStore conversations,
            LiveRouter live, MessageConfig config, MeterRegistry registry) {
        this.database = database;
        this.sends = sends;
        this.dedup = dedup;
        this.conversations = conversations;
        this.live = live;
        this.config = config;
        this.batchSizes = DistributionSummary.builder("imcore.messages.commit.batch")
                .description("1:1 messages stored per group commit").register(registry);
    }

    void start(@Observes StartupEvent event) {
        running = true;
        for (int i = 0; i < config.sendCommit().threads(); i++) {
            Thread thread = new Thread(this::commitLoop, "send-commit-" + i);
            thread.setDaemon(true);
            thread.start();
            committers.add(thread);
        }
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        for (Thread thread : committers) {
            thread.join(10_000);
        }
    }

    /**
     * Stores the message with the next group commit and returns once it is committed: empty when this call stored
     * it, else the answer of the first call with the same transaction_id.
     */
    public Optional<String> commit(DirectSend send) {
        Pending pending = new Pending(send, new CompletableFuture<>());
        if (!running) { // starting or stopping: no committer to wait for
            commitAlone(pending);
        } else {
            queue.add(pending);
        }
        try {
            return pending.answer().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the commit", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure
                    : new IllegalStateException("send not committed", e.getCause());
        }
    }

    private void commitLoop() {
        int maxBatch = config.sendCommit().maxBatch();
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                commitBatch(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | Error e) { // never leave a caller waiting, never lose the thread
                LOG.errorf(e, "group commit of %d sends failed unexpectedly", batch.size());
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    private void commitBatch(List<Pending> batch) {
        if (batch.size() == 1) {
            commitAlone(batch.get(0));
            return;
        }
        Map<Pending, Optional<String>> answers;
        try {
            answers = database.inTransaction(c -> store(c, batch));
        } catch (RuntimeException e) {
            LOG.debugf("group commit of %d sends failed, each is committed alone: %s", batch.size(), e.toString());
            batch.forEach(this::commitAlone);
            return;
        }
        batchSizes.record(batch.size());
        batch.forEach(p -> p.answer().complete(answers.get(p)));
    }

    private void commitAlone(Pending pending) {
        try {
            Map<Pending, Optional<String>> answer = database.inTransaction(c -> store(c, List.of(pending)));
            batchSizes.record(1);
            pending.answer().complete(answer.get(pending));
        } catch (RuntimeException e) {
            pending.answer().completeExceptionally(e);
        }
    }

    /** The batch's claims, then its messages round by round, then the live announcements; all in one transaction. */
    private Map<Pending, Optional<String>> store(Connection c, List<Pending> batch) throws SQLException {
        Map<Pending, Optional<String>> answers = new IdentityHashMap<>();
        List<Pending> claiming = batch.stream().filter(p -> p.send().transactionId() != null)
                // one lock order for every batch: two batches repeating each other's ids cannot deadlock
                .sorted(Comparator.comparing((Pending p) -> p.send().message().appId())
                        .thenComparingLong(p -> p.send().message().message().senderId())
                        .thenComparingLong(p -> p.send().transactionId()))
                .toList();
        for (Pending pending : claiming) {
            DirectSend send = pending.send();
            Optional<String> first = dedup.claim(c, send.message().appId(), send.message().message().senderId(),
                    send.transactionId(), config.dedupWindow(), send.answer());
            first.ifPresent(answer -> answers.put(pending, Optional.of(answer)));
        }
        Map<String, List<Placed>> announced = new LinkedHashMap<>();
        List<Pending> storing = batch.stream().filter(p -> !answers.containsKey(p)).toList();
        for (List<Pending> round : rounds(storing, p -> p.send().message().conversationKey())) {
            List<DirectPlaced> placed = append(c, round);
            for (int i = 0; i < round.size(); i++) {
                Pending pending = round.get(i);
                DirectPlaced where = placed.get(i);
                if (!where.placed().created() && !where.senderReadMoved()) {
                    // the peer created the conversation concurrently: its member rows were not yet visible
                    conversations.markRead(c, pending.send().message().message().senderId(),
                            new long[] {where.placed().conversationId()}, new long[] {where.placed().seq()});
                }
                announced.computeIfAbsent(pending.send().message().appId(), app -> new ArrayList<>())
                        .add(where.placed());
                answers.put(pending, Optional.empty());
            }
        }
        for (Map.Entry<String, List<Placed>> app : announced.entrySet()) {
            live.announce(c, app.getKey(), app.getValue());
        }
        return answers;
    }

    /** A single message binds plain values (one generic plan, SendStore.append); several go as arrays. */
    private List<DirectPlaced> append(Connection c, List<Pending> round) throws SQLException {
        if (round.size() > 1) {
            return sends.appendDirect(c, round.stream().map(p -> p.send().message()).toList(),
                    config.presenceExpiry());
        }
        DirectMessage message = round.get(0).send().message();
        SendStore.Result result = sends.append(c, message.appId(), ConversationKind.DIRECT,
                new long[] {message.lowId()}, new long[] {message.highId()}, message.message(),
                config.presenceExpiry());
        Placed placed = result.placed().get(0);
        return List.of(new DirectPlaced(placed, placed.created() || result.senderReadsMoved() == 1));
    }

    /** Splits the batch so that each round holds a conversation at most once, keeping arrival order. */
    static <T> List<List<T>> rounds(List<T> batch, Function<T, String> conversation) {
        List<List<T>> rounds = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (T item : batch) {
            int round = seen.merge(conversation.apply(item), 1, Integer::sum) - 1;
            if (round == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(round).add(item);
        }
        return rounds;
    }
}
