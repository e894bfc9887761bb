package io.imcore.message.service;

import io.imcore.common.concurrent.NonBlockingAttempt;
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
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Group commit of sends with one target (docs/message-storage.md "Group commit"). Callers queue their message and
 * wait; each committer thread takes whatever is queued for it (up to {@code im.message.send-commit.max-batch}) and
 * stores it in one transaction: the transaction_id claims first, then the 1:1 messages in one multi-row statement,
 * then per group its messages with one lock of the group's row, then the commit. Each caller is answered after the
 * commit that holds its message, so durability, the order within a conversation and the de-duplication are those
 * of a send alone. Nothing waits for a batch to fill: while one commit runs the next batch queues up, so a lone send
 * goes at once and a busy replica commits many per round trip.
 * <p>
 * A conversation's sends always go to the same thread, so two batches never wait for one conversation's row. Every
 * statement takes its rows in one order (claims by key, then 1:1 conversations by key, then groups by id), so two
 * batches cannot deadlock on the rest. A 1:1 conversation may appear once per statement: its second message waits
 * for the thread's next batch. A batch that fails is retried one message per transaction, so one bad message fails
 * only its own caller.
 */
@ApplicationScoped
public class SendCommitter {

    private static final Logger LOG = Logger.getLogger(SendCommitter.class);

    /** A message with one target, queued for the next commit; {@code transactionId} null when it has none. */
    public sealed interface QueuedSend permits DirectSend, GroupSend {
        String appId();

        SendStore.Message message();

        Long transactionId();

        /** The answer recorded with the transaction_id claim. */
        String answer();

        /** Names the conversation: its sends go to one committer thread, so its batches never wait on each other. */
        int conversationHash();
    }

    /** A message from a user to one user. */
    public record DirectSend(DirectMessage direct, Long transactionId, String answer) implements QueuedSend {

        @Override
        public String appId() {
            return direct.appId();
        }

        @Override
        public SendStore.Message message() {
            return direct.message();
        }

        @Override
        public int conversationHash() {
            return direct.conversationKey().hashCode();
        }
    }

    /** A message to one group, from a member, an admin acting for one, or the system. */
    public record GroupSend(String appId, long groupId, long conversationId, SendStore.Message message,
            Long transactionId, String answer) implements QueuedSend {

        @Override
        public int conversationHash() {
            return Long.hashCode(conversationId);
        }
    }

    /** {@code queuedAt}: System.nanoTime() when the caller queued it, for the wait metric. */
    private record Pending(QueuedSend send, CompletableFuture<Optional<String>> answer, long queuedAt) {}

    private final Database database;
    private final SendStore sends;
    private final DedupStore dedup;
    private final ConversationStore conversations;
    private final LiveRouter live;
    private final MessageConfig config;
    private final DistributionSummary batchSizes;
    private final Timer waits;
    private final Timer transactions;
    /** One queue per committer thread. */
    private final List<BlockingQueue<Pending>> queues = new ArrayList<>();
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
                .description("messages with one target stored per group commit").register(registry);
        // a send's time in the committer is its wait for a thread plus its batch's transaction
        this.waits = Timer.builder("imcore.messages.commit.wait")
                .description("from a send's queueing to the start of its batch's transaction").register(registry);
        this.transactions = Timer.builder("imcore.messages.commit.transaction")
                .description("one group commit's transaction, from its first statement to its commit")
                .register(registry);
    }

    void start(@Observes StartupEvent event) {
        for (int i = 0; i < config.sendCommit().threads(); i++) {
            queues.add(new LinkedBlockingQueue<>());
        }
        running = true; // after the queues (a caller that sees it finds them all), before the threads (they loop on it)
        for (int i = 0; i < queues.size(); i++) {
            BlockingQueue<Pending> queue = queues.get(i);
            Thread thread = new Thread(() -> commitLoop(queue), "send-commit-" + i);
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
     * Queues the message for the next group commit. The future completes on a committer thread once it is
     * committed: empty when this call stored it, else the answer of the first call with the same transaction_id;
     * exceptionally with the store's failure.
     */
    public CompletableFuture<Optional<String>> submit(QueuedSend send) {
        Pending pending = new Pending(send, new CompletableFuture<>(), System.nanoTime());
        if (!running) { // starting or stopping: no committer to wait for
            NonBlockingAttempt.refuseBlocking();
            commitAlone(pending);
        } else {
            queues.get(Math.floorMod(send.conversationHash(), queues.size())).add(pending);
        }
        return pending.answer();
    }

    private void commitLoop(BlockingQueue<Pending> queue) {
        int maxBatch = config.sendCommit().maxBatch();
        List<Pending> batch = new ArrayList<>(maxBatch);
        List<Pending> deferred = new ArrayList<>();
        while (running || !queue.isEmpty() || !deferred.isEmpty()) {
            try {
                batch.addAll(deferred);
                deferred.clear();
                if (batch.isEmpty()) {
                    Pending first = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                }
                queue.drainTo(batch, maxBatch - batch.size());
                deferRepeatedConversations(batch, deferred);
                long now = System.nanoTime();
                batch.forEach(p -> waits.record(now - p.queuedAt(), TimeUnit.NANOSECONDS));
                commitBatch(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deferred.forEach(p -> p.answer().completeExceptionally(e));
                return;
            } catch (RuntimeException | Error e) { // never leave a caller waiting, never lose the thread
                LOG.errorf(e, "group commit of %d sends failed unexpectedly", batch.size());
                batch.forEach(p -> p.answer().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    /** Moves the 1:1 messages whose conversation an earlier one of the batch has to {@code deferred}, in order. */
    private static void deferRepeatedConversations(List<Pending> batch, List<Pending> deferred) {
        Set<String> seen = new HashSet<>();
        batch.removeIf(pending -> {
            boolean repeated = pending.send() instanceof DirectSend direct
                    && !seen.add(direct.direct().conversationKey());
            if (repeated) {
                deferred.add(pending);
            }
            return repeated;
        });
    }

    private void commitBatch(List<Pending> batch) {
        if (batch.size() == 1) {
            commitAlone(batch.get(0));
            return;
        }
        Map<Pending, Optional<String>> answers;
        try {
            answers = storeTimed(batch);
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
            Map<Pending, Optional<String>> answer = storeTimed(List.of(pending));
            batchSizes.record(1);
            pending.answer().complete(answer.get(pending));
        } catch (RuntimeException e) {
            pending.answer().completeExceptionally(e);
        }
    }

    /** {@link #store} in one transaction, timed when it commits. */
    private Map<Pending, Optional<String>> storeTimed(List<Pending> batch) {
        long start = System.nanoTime();
        Map<Pending, Optional<String>> answers = database.inTransaction(c -> store(c, batch));
        transactions.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return answers;
    }

    /** The batch's claims, its 1:1 messages, its group messages and the live announcements; one transaction. */
    private Map<Pending, Optional<String>> store(Connection c, List<Pending> batch) throws SQLException {
        Map<Pending, Optional<String>> answers = new IdentityHashMap<>();
        List<Pending> claiming = batch.stream().filter(p -> p.send().transactionId() != null)
                .sorted(Comparator.comparing((Pending p) -> p.send().appId())
                        .thenComparingLong(p -> p.send().message().senderId())
                        .thenComparingLong(p -> p.send().transactionId()))
                .toList();
        for (Pending pending : claiming) {
            QueuedSend send = pending.send();
            Optional<String> first = dedup.claim(c, send.appId(), send.message().senderId(), send.transactionId(),
                    config.dedupWindow(), send.answer());
            first.ifPresent(answer -> answers.put(pending, Optional.of(answer)));
        }
        Map<String, List<Placed>> announced = new LinkedHashMap<>();
        List<Pending> direct = new ArrayList<>();
        Map<Long, List<Pending>> groups = new TreeMap<>(); // by conversation id: the lock order
        for (Pending pending : batch) {
            if (answers.containsKey(pending)) {
                continue;
            }
            if (pending.send() instanceof GroupSend group) {
                groups.computeIfAbsent(group.conversationId(), id -> new ArrayList<>()).add(pending);
            } else {
                direct.add(pending);
            }
        }
        if (!direct.isEmpty()) {
            List<DirectPlaced> placed = appendDirect(c, direct);
            for (int i = 0; i < direct.size(); i++) {
                Pending pending = direct.get(i);
                DirectPlaced where = placed.get(i);
                if (!where.placed().created() && !where.senderReadMoved()) {
                    // the peer created the conversation concurrently: its member rows were not yet visible
                    conversations.markRead(c, pending.send().message().senderId(),
                            new long[] {where.placed().conversationId()}, new long[] {where.placed().seq()});
                }
                announced.computeIfAbsent(pending.send().appId(), app -> new ArrayList<>()).add(where.placed());
                answers.put(pending, Optional.empty());
            }
        }
        for (List<Pending> toOneGroup : groups.values()) {
            List<Placed> placed = appendToGroup(c, toOneGroup);
            announced.computeIfAbsent(toOneGroup.get(0).send().appId(), app -> new ArrayList<>()).addAll(placed);
            toOneGroup.forEach(p -> answers.put(p, Optional.empty()));
        }
        for (Map.Entry<String, List<Placed>> app : announced.entrySet()) {
            live.announce(c, app.getKey(), app.getValue());
        }
        return answers;
    }

    /** A single message binds plain values (one generic plan, SendStore.append); several go as arrays. */
    private List<DirectPlaced> appendDirect(Connection c, List<Pending> direct) throws SQLException {
        if (direct.size() > 1) {
            return sends.appendDirect(c, direct.stream().map(p -> ((DirectSend) p.send()).direct()).toList(),
                    config.presenceExpiry());
        }
        DirectMessage message = ((DirectSend) direct.get(0).send()).direct();
        SendStore.Result result = sends.append(c, message.appId(), ConversationKind.DIRECT,
                new long[] {message.lowId()}, new long[] {message.highId()}, message.message(),
                config.presenceExpiry());
        Placed placed = result.placed().get(0);
        return List.of(new DirectPlaced(placed, placed.created() || result.senderReadsMoved() == 1));
    }

    /** The messages of the batch to one group, in arrival order. */
    private List<Placed> appendToGroup(Connection c, List<Pending> toOneGroup) throws SQLException {
        GroupSend first = (GroupSend) toOneGroup.get(0).send();
        if (toOneGroup.size() > 1) {
            return sends.appendToGroup(c, first.groupId(), first.conversationId(),
                    toOneGroup.stream().map(p -> p.send().message()).toList(), config.presenceExpiry());
        }
        return sends.append(c, first.appId(), ConversationKind.GROUP, new long[] {first.groupId()}, new long[] {0},
                first.message(), config.presenceExpiry()).placed();
    }
}
