package io.imcore.message.send;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.common.store.GroupCommitter;
import io.imcore.common.store.GroupCommitter.Stored;
import io.imcore.message.MessageConfig;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.Logged;
import io.imcore.message.conversation.AppUsers;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationStore;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.group.GroupStore;
import io.imcore.message.group.GroupStore.SenderCheck;
import io.imcore.message.group.GroupStore.SenderChecked;
import io.imcore.message.offlinepush.OfflinePushQueue;
import io.imcore.message.send.SendPlan.DirectSend;
import io.imcore.message.send.SendPlan.FanOutSend;
import io.imcore.message.send.SendPlan.GroupSend;
import io.imcore.message.send.SendPlan.OneTargetSend;
import io.imcore.message.send.SendPlan.Write;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * The one writer of sends (docs/message-storage.md "Group commit"), on common's {@link GroupCommitter}. A send with
 * one target is queued and waits; each committer thread takes whatever is queued for it (up to
 * {@code im.message.send-commit.max-batch}) and stores it in one transaction: the group sends' checks first, then
 * the transaction_id claims, then the 1:1 messages in one multi-row statement, then per group its messages with one
 * lock of its conversation's row, then the commit. Each caller is answered after the commit that holds its message,
 * so durability, the order within a conversation and the de-duplication are those of a send alone. Nothing waits
 * for a batch to fill: while one commit runs the next batch queues up, so a lone send goes at once and a busy
 * replica commits many per round trip. A send to several targets ({@link FanOutSend}) goes through the same store,
 * alone, at once, on the caller's thread: it neither waits in a queue nor holds up a committer thread.
 * <p>
 * A conversation's sends always go to the same thread, so two batches never wait for one conversation's row. Every
 * statement takes its rows in one order (group senders' member rows by group and user, then claims by key, then
 * 1:1 conversations by key, then groups by id), so two batches cannot deadlock on the rest. A 1:1 conversation
 * may appear once per statement: its second message waits for the thread's next batch. A batch that fails is
 * retried one message per transaction, so one bad message fails only its own caller.
 * <p>
 * A send to groups is checked here, in the transaction that stores it: each group must exist (20001) and, unless an
 * admin or the system sends, the sender must be a member (20002) and not muted (20003), with the sender's member rows
 * locked until the commit, so a member removed before the commit cannot send. The caller need not query anything
 * before it queues: a warm group send is served on the event loop like a 1:1 one.
 */
@ApplicationScoped
public class SendCommitter {

    /**
     * What a written plan came to, once committed: stored by this call ({@link #STORED}), a repeat of an earlier
     * call with its transaction_id ({@code firstAnswer}: what that call answered), or refused ({@code refusal}).
     */
    public record Outcome(String firstAnswer, ApiException refusal) {

        public static final Outcome STORED = new Outcome(null, null);
    }

    private final SendStore sends;
    private final DedupStore dedup;
    private final GroupStore groups;
    private final ConversationStore conversations;
    private final ChangeLog changeLog;
    private final OfflinePushQueue offlinePush;
    private final WebhookEventQueue webhooks;
    private final MessageConfig config;
    private final GroupCommitter<Write, Outcome> committer;

    public SendCommitter(Database database, SendStore sends, DedupStore dedup, GroupStore groups,
            ConversationStore conversations, ChangeLog changeLog, OfflinePushQueue offlinePush,
            WebhookEventQueue webhooks, MessageConfig config, MeterRegistry registry) {
        this.sends = sends;
        this.dedup = dedup;
        this.groups = groups;
        this.conversations = conversations;
        this.changeLog = changeLog;
        this.offlinePush = offlinePush;
        this.webhooks = webhooks;
        this.config = config;
        // a send's time in the committer is its wait for a thread plus its batch's transaction
        GroupCommitter.Meters meters = new GroupCommitter.Meters(
                DistributionSummary.builder("imcore.messages.commit.batch")
                        .description("messages with one target stored per group commit").register(registry),
                Timer.builder("imcore.messages.commit.wait")
                        .description("from a send's queueing to the start of its batch's transaction")
                        .register(registry),
                Timer.builder("imcore.messages.commit.transaction")
                        .description("one group commit's transaction, from its first statement to its commit")
                        .register(registry));
        this.committer = new GroupCommitter<>("send-commit", config.sendCommit().threads(), SendCommitter::thread,
                database, config.sendCommit().maxBatch(), SendCommitter::statementKey, this::store, meters);
    }

    void start(@Observes StartupEvent event) {
        committer.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        committer.stop();
    }

    /**
     * Queues the message for the next group commit. The future completes on a committer thread once it is
     * committed, with its outcome; exceptionally with the store's failure.
     */
    public CompletableFuture<Outcome> submit(OneTargetSend send) {
        return committer.submit(send);
    }

    /** Stores the messages now, in a transaction of their own on the caller's thread; throws the store's failure. */
    public Outcome storeNow(FanOutSend send) {
        return committer.storeNow(send);
    }

    /** The committer thread of a send: its conversation's (a fan-out is never queued). */
    private static int thread(Write send) {
        return switch (send) {
            case OneTargetSend oneTarget -> oneTarget.conversationHash();
            case FanOutSend fanOut -> 0;
        };
    }

    /**
     * What one statement may append to once: a 1:1 message's conversation; a group's messages go in one statement
     * together (null: no limit).
     */
    private static Object statementKey(Write send) {
        return send instanceof DirectSend direct ? direct.direct().conversationKey() : null;
    }

    /**
     * The batch's group checks, claims, 1:1 messages, fan-out (always alone in its batch), group messages, then
     * what every stored message adds ({@link Tail}); one transaction, its rows locked in that order. A refused send
     * changes nothing, and does not fail the others. After the commit the logged changes are handed to the live
     * announcement: only committed ones, in this thread's commit order, which is each of its conversations' order.
     */
    private Stored<Outcome> store(Connection c, List<Write> batch) throws SQLException {
        Outcome[] outcomes = new Outcome[batch.size()];
        long[] groupConversations = checkGroups(c, batch, outcomes);
        claim(c, batch, outcomes);
        Tail tail = new Tail(c);
        List<DirectSend> direct = new ArrayList<>();
        List<FanOutSend> fanOuts = new ArrayList<>();
        Map<Long, List<GroupSend>> toGroups = new TreeMap<>(); // by conversation id: the lock order
        for (int i = 0; i < batch.size(); i++) {
            if (outcomes[i] != null) {
                continue;
            }
            outcomes[i] = Outcome.STORED;
            switch (batch.get(i)) {
                case DirectSend send -> direct.add(send);
                case GroupSend send -> toGroups.computeIfAbsent(groupConversations[i], id -> new ArrayList<>())
                        .add(send);
                case FanOutSend send -> fanOuts.add(send);
            }
        }
        if (!direct.isEmpty()) {
            appendDirect(c, direct, tail);
        }
        for (FanOutSend fanOut : fanOuts) {
            appendFanOut(c, fanOut, tail);
        }
        for (Map.Entry<Long, List<GroupSend>> toOneGroup : toGroups.entrySet()) {
            appendToGroup(c, toOneGroup.getKey(), toOneGroup.getValue(), tail);
        }
        List<Logged> logged = tail.store();
        return new Stored<>(Arrays.asList(outcomes), () -> changeLog.announce(logged));
    }

    /** Claims the transaction_ids of the sends not refused, in key order; a repeat's outcome is its first answer. */
    private void claim(Connection c, List<Write> batch, Outcome[] outcomes) throws SQLException {
        List<Integer> claiming = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i).transactionId() != null && outcomes[i] == null) {
                claiming.add(i);
            }
        }
        claiming.sort(Comparator.comparing((Integer i) -> batch.get(i).appId())
                .thenComparingLong(i -> batch.get(i).message().senderId())
                .thenComparingLong(i -> batch.get(i).transactionId()));
        for (int i : claiming) {
            Write send = batch.get(i);
            dedup.claim(c, send.appId(), send.message().senderId(), send.transactionId(), config.dedupWindow(),
                    send.answer()).ifPresent(first -> outcomes[i] = new Outcome(first, null));
        }
    }

    /** One group a send goes to: {@code send} is the send's index in the batch, {@code at} this target's. */
    private record GroupTarget(int send, int at, String appId, long groupId, long memberId) implements SenderCheck {}

    /**
     * Refuses the batch's sends to a group that does not exist (20001), from a sender who is not a member (20002) or
     * is muted there (20003), as this transaction sees them with the senders' member rows locked; returns, by index
     * in the batch, the conversation of each {@link GroupSend} let through.
     */
    private long[] checkGroups(Connection c, List<Write> batch, Outcome[] outcomes) throws SQLException {
        List<GroupTarget> targets = new ArrayList<>(); // a send's targets consecutive, in its order
        for (int i = 0; i < batch.size(); i++) {
            switch (batch.get(i)) {
                case GroupSend send -> targets.add(new GroupTarget(i, targets.size(), send.appId(), send.groupId(),
                        send.membersOnly() ? send.message().senderId() : 0));
                case FanOutSend send -> {
                    if (send.kind() == ConversationKind.GROUP) {
                        for (long groupId : send.lowIds()) {
                            targets.add(new GroupTarget(i, targets.size(), send.appId(), groupId,
                                    send.membersOnly() ? send.message().senderId() : 0));
                        }
                    }
                }
                case DirectSend send -> { } // its peer is checked before it is planned
            }
        }
        long[] conversationOf = new long[batch.size()];
        if (targets.isEmpty()) {
            return conversationOf;
        }
        List<GroupTarget> lockOrder = targets.stream().sorted(Comparator.comparing(GroupTarget::appId)
                .thenComparingLong(GroupTarget::groupId).thenComparingLong(GroupTarget::memberId)).toList();
        List<SenderChecked> checkedInLockOrder = groups.checkSenders(c, lockOrder);
        SenderChecked[] checked = new SenderChecked[targets.size()];
        for (int k = 0; k < lockOrder.size(); k++) {
            checked[lockOrder.get(k).at()] = checkedInLockOrder.get(k);
        }
        for (int from = 0, to; from < targets.size(); from = to) {
            int send = targets.get(from).send();
            to = from + 1;
            while (to < targets.size() && targets.get(to).send() == send) {
                to++;
            }
            ApiException refusal = refusal(targets, from, to, checked);
            if (refusal != null) {
                outcomes[send] = new Outcome(null, refusal);
            } else {
                conversationOf[send] = checked[from].conversationId();
            }
        }
        return conversationOf;
    }

    /**
     * Why the send whose groups are {@code targets[from, to)} is refused, the first reason any of them gives, in
     * their order; null: it is not.
     */
    private static ApiException refusal(List<GroupTarget> targets, int from, int to, SenderChecked[] checked) {
        List<Long> missing = groupsWhere(targets, from, to, checked, found -> !found.found() || found.destroyed());
        if (!missing.isEmpty()) {
            return new ApiException(ErrorCode.GROUP_NOT_FOUND, "targets: no such group " + AppUsers.joinIds(missing));
        }
        if (targets.get(from).memberId() == 0) {
            return null; // an admin's or the system's send
        }
        List<Long> notMember = groupsWhere(targets, from, to, checked, found -> !found.member());
        if (!notMember.isEmpty()) {
            return new ApiException(ErrorCode.NOT_GROUP_MEMBER, "targets: sender is not a member of group "
                    + AppUsers.joinIds(notMember));
        }
        List<Long> muted = groupsWhere(targets, from, to, checked, SenderChecked::muted);
        if (!muted.isEmpty()) {
            return new ApiException(ErrorCode.GROUP_MEMBER_MUTED, "targets: sender is muted in group "
                    + AppUsers.joinIds(muted));
        }
        return null;
    }

    /** The ids of the groups {@code targets[from, to)} whose check matches (none allocated when none does). */
    private static List<Long> groupsWhere(List<GroupTarget> targets, int from, int to, SenderChecked[] checked,
            Predicate<SenderChecked> matches) {
        List<Long> ids = List.of();
        for (int i = from; i < to; i++) {
            if (matches.test(checked[i])) {
                if (ids.isEmpty()) {
                    ids = new ArrayList<>();
                }
                ids.add(targets.get(i).groupId());
            }
        }
        return ids;
    }

    /** A single message binds plain values (one generic plan, SendStore.append); several go as arrays. */
    private void appendDirect(Connection c, List<DirectSend> direct, Tail tail) throws SQLException {
        List<DirectPlaced> placed;
        if (direct.size() > 1) {
            placed = sends.appendDirect(c, direct.stream().map(DirectSend::direct).toList());
        } else {
            DirectMessage message = direct.get(0).direct();
            SendStore.Result result = sends.append(c, message.appId(), ConversationKind.DIRECT,
                    new long[] {message.lowId()}, new long[] {message.highId()}, message.message());
            PlacedMessage one = result.placed().get(0);
            placed = List.of(new DirectPlaced(one, one.created() || result.senderReadsMoved() == 1));
        }
        for (int i = 0; i < direct.size(); i++) {
            DirectSend send = direct.get(i);
            DirectPlaced where = placed.get(i);
            if (!where.senderReadMoved()) {
                markRead(c, send.message().senderId(), List.of(where.placed()));
            }
            tail.add(send.appId(), ConversationKind.DIRECT, send.message(), where.placed());
        }
    }

    private void appendFanOut(Connection c, FanOutSend send, Tail tail) throws SQLException {
        SendStore.Result result = sends.append(c, send.appId(), send.kind(), send.lowIds(), send.highIds(),
                send.message());
        if (send.kind() == ConversationKind.DIRECT) {
            List<PlacedMessage> existing = result.placed().stream().filter(p -> !p.created()).toList();
            if (result.senderReadsMoved() < existing.size()) {
                markRead(c, send.message().senderId(), existing); // the statement counts them, it does not name them
            }
        }
        for (PlacedMessage placed : result.placed()) {
            tail.add(send.appId(), send.kind(), send.message(), placed);
        }
    }

    /**
     * The sender's read position at its message where the send's statement could not move it: the peer created
     * the conversation concurrently, and its member rows were not yet visible to the statement.
     */
    private void markRead(Connection c, long sender, List<PlacedMessage> placed) throws SQLException {
        conversations.markRead(c, sender, placed.stream().mapToLong(PlacedMessage::conversationId).toArray(),
                placed.stream().mapToLong(PlacedMessage::seq).toArray());
    }

    /** The messages of the batch to one group, whose conversation is {@code conversationId}, in arrival order. */
    private void appendToGroup(Connection c, long conversationId, List<GroupSend> toOneGroup, Tail tail)
            throws SQLException {
        GroupSend first = toOneGroup.get(0);
        List<PlacedMessage> placed = toOneGroup.size() > 1
                ? sends.appendToGroup(c, first.groupId(), conversationId,
                        toOneGroup.stream().map(GroupSend::message).toList())
                : sends.append(c, first.appId(), ConversationKind.GROUP, new long[] {first.groupId()},
                        new long[] {0}, first.message()).placed();
        for (int i = 0; i < placed.size(); i++) {
            tail.add(first.appId(), ConversationKind.GROUP, toOneGroup.get(i).message(), placed.get(i));
        }
    }

    /**
     * The tail every stored message of a transaction shares, stored after the messages: their offline push marks
     * (one statement per app), their webhook events (one statement, none when no app of the batch subscribes to
     * message.created) and, last, their changes in the users' logs.
     */
    private final class Tail {
        private final Connection c;
        private final MessageChanges messageChanges;
        private final Map<String, List<PlacedMessage>> byApp = new LinkedHashMap<>();
        private final List<Change> changes = new ArrayList<>();
        private final List<CreatedMessage> created = new ArrayList<>();

        Tail(Connection c) {
            this.c = c;
            this.messageChanges = new MessageChanges(c);
        }

        void add(String appId, ConversationKind kind, SendStore.Message message, PlacedMessage placed)
                throws SQLException {
            byApp.computeIfAbsent(appId, app -> new ArrayList<>()).add(placed);
            messageChanges.add(changes, appId, kind, placed);
            created.add(message.created(appId, kind, placed));
        }

        /** Stores them; returns the logged changes, to announce after the commit. */
        List<Logged> store() throws SQLException {
            for (Map.Entry<String, List<PlacedMessage>> app : byApp.entrySet()) {
                offlinePush.enqueue(c, app.getKey(), app.getValue());
            }
            webhooks.messagesCreated(c, created);
            return changeLog.append(c, changes);
        }
    }
}
