package io.imcore.message.send;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.concurrent.NonBlockingAttempt;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationStore;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.group.GroupStore;
import io.imcore.message.group.GroupStore.SenderCheck;
import io.imcore.message.group.GroupStore.SenderChecked;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.Logged;
import io.imcore.message.offlinepush.OfflinePushQueue;
import io.imcore.message.send.SendPlan.DirectSend;
import io.imcore.message.send.SendPlan.GroupCommitted;
import io.imcore.message.send.SendPlan.GroupSend;
import io.imcore.message.send.SendStore.DirectMessage;
import io.imcore.message.send.SendStore.DirectPlaced;
import io.imcore.message.webhook.WebhookEventQueue;
import io.imcore.message.webhook.WebhookEventQueue.CreatedMessage;
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
 * stores it in one transaction: the group sends' checks first, then the transaction_id claims, then the 1:1
 * messages in one multi-row statement, then per group its messages with one lock of its conversation's row, then
 * the commit. Each caller is answered after the commit that holds its message, so durability, the order within a
 * conversation and the de-duplication are those of a send alone. Nothing waits for a batch to fill: while one
 * commit runs the next batch queues up, so a lone send goes at once and a busy replica commits many per round trip.
 * <p>
 * A conversation's sends always go to the same thread, so two batches never wait for one conversation's row. Every
 * statement takes its rows in one order (group senders' member rows by group and user, then claims by key, then
 * 1:1 conversations by key, then groups by id), so two batches cannot deadlock on the rest. A 1:1 conversation
 * may appear once per statement: its second message waits for the thread's next batch. A batch that fails is
 * retried one message per transaction, so one bad message fails only its own caller.
 * <p>
 * A group send is checked here, in the transaction that stores it: the group must exist (20001) and, unless an admin
 * or the system sends, the sender must be a member (20002), with the sender's member row locked until the commit,
 * so a member removed before the commit cannot send. The caller need not query anything before it queues: a warm
 * group send is served on the event loop like a 1:1 one.
 */
@ApplicationScoped
public class SendCommitter {

    private static final Logger LOG = Logger.getLogger(SendCommitter.class);

    /** What a caller learns after the commit: the first call's answer (empty: this call stored it), or a refusal. */
    private record Outcome(Optional<String> first, ApiException refusal) {

        static final Outcome STORED = new Outcome(Optional.empty(), null);

        static Outcome repeated(String firstAnswer) {
            return new Outcome(Optional.of(firstAnswer), null);
        }

        static Outcome refused(ApiException refusal) {
            return new Outcome(Optional.empty(), refusal);
        }

        void tell(CompletableFuture<Optional<String>> answer) {
            if (refusal != null) {
                answer.completeExceptionally(refusal);
            } else {
                answer.complete(first);
            }
        }
    }

    /** {@code queuedAt}: System.nanoTime() when the caller queued it, for the wait metric. */
    private record Pending(GroupCommitted send, CompletableFuture<Optional<String>> answer, long queuedAt) {}

    private final Database database;
    private final SendStore sends;
    private final DedupStore dedup;
    private final GroupStore groups;
    private final ConversationStore conversations;
    private final ChangeLog changeLog;
    private final OfflinePushQueue offlinePush;
    private final WebhookEventQueue webhooks;
    private final MessageConfig config;
    private final DistributionSummary batchSizes;
    private final Timer waits;
    private final Timer transactions;
    /** One queue per committer thread. */
    private final List<BlockingQueue<Pending>> queues = new ArrayList<>();
    private final List<Thread> committers = new ArrayList<>();
    private volatile boolean running;

    public SendCommitter(Database database, SendStore sends, DedupStore dedup, GroupStore groups,
            ConversationStore conversations, ChangeLog changeLog, OfflinePushQueue offlinePush,
            WebhookEventQueue webhooks, MessageConfig config, MeterRegistry registry) {
        this.database = database;
        this.sends = sends;
        this.dedup = dedup;
        this.groups = groups;
        this.conversations = conversations;
        this.changeLog = changeLog;
        this.offlinePush = offlinePush;
        this.webhooks = webhooks;
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
     * exceptionally with an {@link ApiException} when a group send is refused, or with the store's failure.
     */
    public CompletableFuture<Optional<String>> submit(GroupCommitted send) {
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
        Map<Pending, Outcome> outcomes;
        try {
            outcomes = storeTimed(batch);
        } catch (RuntimeException e) {
            LOG.debugf("group commit of %d sends failed, each is committed alone: %s", batch.size(), e.toString());
            batch.forEach(this::commitAlone);
            return;
        }
        batchSizes.record(batch.size());
        batch.forEach(p -> outcomes.get(p).tell(p.answer()));
    }

    private void commitAlone(Pending pending) {
        try {
            Map<Pending, Outcome> outcome = storeTimed(List.of(pending));
            batchSizes.record(1);
            outcome.get(pending).tell(pending.answer());
        } catch (RuntimeException e) {
            pending.answer().completeExceptionally(e);
        }
    }

    /** What one transaction stored: each send's outcome, and the changes it logged. */
    private record Stored(Map<Pending, Outcome> outcomes, List<Logged> logged) {}

    /**
     * {@link #store} in one transaction, timed when it commits; then the logged changes are handed to the live
     * announcement: only committed ones, in this thread's commit order, which is each of its conversations' order.
     */
    private Map<Pending, Outcome> storeTimed(List<Pending> batch) {
        long start = System.nanoTime();
        Stored stored = database.inTransaction(c -> store(c, batch));
        transactions.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        changeLog.announce(stored.logged());
        return stored.outcomes();
    }

    /**
     * The batch's group checks, claims, 1:1 messages, group messages, offline push marks, webhook events (one
     * statement, none when no app of the batch subscribes to message.created) and, last, the changes in the users'
     * logs; one transaction.
     * A refused send changes nothing, and does not fail the others.
     */
    private Stored store(Connection c, List<Pending> batch) throws SQLException {
        Map<Pending, Outcome> outcomes = new IdentityHashMap<>();
        Map<Pending, Long> groupConversations = checkGroupSends(c, batch, outcomes);
        List<Pending> claiming = batch.stream()
                .filter(p -> p.send().transactionId() != null && !outcomes.containsKey(p))
                .sorted(Comparator.comparing((Pending p) -> p.send().appId())
                        .thenComparingLong(p -> p.send().message().senderId())
                        .thenComparingLong(p -> p.send().transactionId()))
                .toList();
        for (Pending pending : claiming) {
            GroupCommitted send = pending.send();
            Optional<String> first = dedup.claim(c, send.appId(), send.message().senderId(), send.transactionId(),
                    config.dedupWindow(), send.answer());
            first.ifPresent(answer -> outcomes.put(pending, Outcome.repeated(answer)));
        }
        Map<String, List<PlacedMessage>> announced = new LinkedHashMap<>();
        List<Change> changes = new ArrayList<>();
        List<CreatedMessage> created = new ArrayList<>();
        MessageChanges messageChanges = new MessageChanges(c);
        List<Pending> direct = new ArrayList<>();
        Map<Long, List<Pending>> toGroups = new TreeMap<>(); // by conversation id: the lock order
        for (Pending pending : batch) {
            if (outcomes.containsKey(pending)) {
                continue;
            }
            if (pending.send() instanceof GroupSend) {
                toGroups.computeIfAbsent(groupConversations.get(pending), id -> new ArrayList<>()).add(pending);
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
                messageChanges.add(changes, pending.send().appId(), ConversationKind.DIRECT, where.placed());
                created.add(pending.send().message().created(pending.send().appId(), ConversationKind.DIRECT,
                        where.placed()));
                outcomes.put(pending, Outcome.STORED);
            }
        }
        for (Map.Entry<Long, List<Pending>> toOneGroup : toGroups.entrySet()) {
            List<PlacedMessage> placed = appendToGroup(c, toOneGroup.getKey(), toOneGroup.getValue());
            String appId = toOneGroup.getValue().get(0).send().appId();
            announced.computeIfAbsent(appId, app -> new ArrayList<>()).addAll(placed);
            for (int i = 0; i < placed.size(); i++) {
                messageChanges.add(changes, appId, ConversationKind.GROUP, placed.get(i));
                created.add(toOneGroup.getValue().get(i).send().message().created(appId, ConversationKind.GROUP,
                        placed.get(i)));
            }
            toOneGroup.getValue().forEach(p -> outcomes.put(p, Outcome.STORED));
        }
        for (Map.Entry<String, List<PlacedMessage>> app : announced.entrySet()) {
            offlinePush.enqueue(c, app.getKey(), app.getValue());
        }
        webhooks.messagesCreated(c, created);
        return new Stored(outcomes, changeLog.append(c, changes));
    }

    /**
     * Refuses the batch's group sends to a group that does not exist (20001), from a sender who is not a member
     * (20002) or is muted there (20003), as this transaction sees them with the senders' member rows locked; returns the conversation of each
     * group send let through.
     */
    private Map<Pending, Long> checkGroupSends(Connection c, List<Pending> batch, Map<Pending, Outcome> outcomes)
            throws SQLException {
        List<Pending> toGroups = batch.stream().filter(p -> p.send() instanceof GroupSend)
                .sorted(Comparator.comparing((Pending p) -> p.send().appId())
                        .thenComparingLong(p -> ((GroupSend) p.send()).groupId())
                        .thenComparingLong(p -> p.send().message().senderId()))
                .toList();
        if (toGroups.isEmpty()) {
            return Map.of();
        }
        List<SenderChecked> checked = groups.checkSenders(c, toGroups.stream().map(p -> {
            GroupSend send = (GroupSend) p.send();
            return new SenderCheck(send.appId(), send.groupId(), send.membersOnly() ? send.message().senderId() : 0);
        }).toList());
        Map<Pending, Long> conversationOf = new IdentityHashMap<>();
        for (int i = 0; i < toGroups.size(); i++) {
            Pending pending = toGroups.get(i);
            GroupSend send = (GroupSend) pending.send();
            SenderChecked check = checked.get(i);
            if (!check.found() || check.destroyed()) {
                outcomes.put(pending, Outcome.refused(new ApiException(ErrorCode.GROUP_NOT_FOUND,
                        "targets: no such group " + send.groupId())));
            } else if (send.membersOnly() && !check.member()) {
                outcomes.put(pending, Outcome.refused(new ApiException(ErrorCode.NOT_GROUP_MEMBER,
                        "targets: sender is not a member of group " + send.groupId())));
            } else if (send.membersOnly() && check.muted()) {
                outcomes.put(pending, Outcome.refused(new ApiException(ErrorCode.GROUP_MEMBER_MUTED,
                        "targets: sender is muted in group " + send.groupId())));
            } else {
                conversationOf.put(pending, check.conversationId());
            }
        }
        return conversationOf;
    }

    /** A single message binds plain values (one generic plan, SendStore.append); several go as arrays. */
    private List<DirectPlaced> appendDirect(Connection c, List<Pending> direct) throws SQLException {
        if (direct.size() > 1) {
            return sends.appendDirect(c, direct.stream().map(p -> ((DirectSend) p.send()).direct()).toList());
        }
        DirectMessage message = ((DirectSend) direct.get(0).send()).direct();
        SendStore.Result result = sends.append(c, message.appId(), ConversationKind.DIRECT,
                new long[] {message.lowId()}, new long[] {message.highId()}, message.message());
        PlacedMessage placed = result.placed().get(0);
        return List.of(new DirectPlaced(placed, placed.created() || result.senderReadsMoved() == 1));
    }

    /** The messages of the batch to one group, whose conversation is {@code conversationId}, in arrival order. */
    private List<PlacedMessage> appendToGroup(Connection c, long conversationId, List<Pending> toOneGroup)
            throws SQLException {
        GroupSend first = (GroupSend) toOneGroup.get(0).send();
        if (toOneGroup.size() > 1) {
            return sends.appendToGroup(c, first.groupId(), conversationId,
                    toOneGroup.stream().map(p -> p.send().message()).toList());
        }
        return sends.append(c, first.appId(), ConversationKind.GROUP, new long[] {first.groupId()}, new long[] {0},
                first.message()).placed();
    }
}
