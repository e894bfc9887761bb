package io.imcore.message.conversation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.store.Database;
import io.imcore.common.store.GroupCommitter;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.changelog.Logged;
import io.imcore.message.conversation.ConversationPage.PageIterator;
import io.imcore.message.conversation.ConversationStore.Delivered;
import io.imcore.message.conversation.ConversationStore.Key;
import io.imcore.message.conversation.ConversationStore.Member;
import io.imcore.message.conversation.ConversationStore.ReadMove;
import io.imcore.message.webhook.WebhookEventQueue;
import io.imcore.message.webhook.WebhookEvents;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What a user sees of their conversations: pages of messages with a status per viewer, read receipts, deleting a
 * conversation for oneself, and the recent-conversations list with unread counts (decisions.md section 4).
 * A conversation is named by its address as the viewer sees it: the peer user, the group, or 0 for the system.
 */
@ApplicationScoped
public class ConversationService {

    public static final int DEFAULT_PAGE = 20;
    public static final int MAX_PAGE = 100;
    public static final int MAX_UNREAD = 200;
    /** The status of a recalled message, whoever views it. */
    public static final String RECALLED = "RECALLED";
    /** The most live acknowledgements one group commit stores. */
    private static final int MAX_ACK_BATCH = 500;

    private final Database database;
    private final IdentityDirectory directory;
    private final ConversationStore conversations;
    private final MessageStore messages;
    private final GroupConversations groups;
    private final ChangeLog changeLog;
    private final GroupCommitter<Delivered, Boolean> deliveries;
    private final Event<GroupRead> groupReads;
    private final WebhookEventQueue webhooks;

    public ConversationService(Database database, IdentityDirectory directory, ConversationStore conversations,
            MessageStore messages, GroupConversations groups, ChangeLog changeLog, MeterRegistry registry,
            Event<GroupRead> groupReads, WebhookEventQueue webhooks) {
        this.webhooks = webhooks;
        this.changeLog = changeLog;
        this.database = database;
        this.groupReads = groupReads;
        this.directory = directory;
        this.conversations = conversations;
        this.messages = messages;
        this.groups = groups;
        // every live frame is acked: one commit per ack halved the live path's rate (docs/benchmarks.md, issue 34)
        this.deliveries = new GroupCommitter<>("delivery-ack-commit", database, MAX_ACK_BATCH,
                ack -> List.of(ack.conversationId(), ack.userId()), (c, acks) -> {
                    conversations.markDeliveredUpTo(c, acks);
                    return Collections.nCopies(acks.size(), Boolean.TRUE);
                }, DistributionSummary.builder("imcore.messages.delivered.batch")
                        .description("live acknowledgements stored per group commit").register(registry));
    }

    void start(@Observes StartupEvent event) {
        deliveries.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        deliveries.stop();
    }

    /** The viewer's membership in a conversation, or empty when the (valid) conversation has no messages yet. */
    record Viewed(ConversationKind kind, long conversationId, Member member, Optional<Member> peer) {}

    public ConversationPage page(String appId, long viewer, long address, long msgIdStart, int limit) {
        Optional<Viewed> viewed = resolve(appId, viewer, address, "opposite_id");
        if (viewed.isEmpty()) {
            return new ConversationPage(List.of(), 0, true, 0, null, true, true, true);
        }
        Viewed v = viewed.get();
        List<MessageRow> rows = database.read(c -> messages.pageDescending(c, v.conversationId(),
                v.member().floorMsgId(), msgIdStart, limit));
        boolean last = rows.size() <= limit;
        List<MessageRow> page = new ArrayList<>(last ? rows : rows.subList(0, limit));
        Collections.reverse(page);
        List<MessageView> views = page.stream().map(row -> view(row, status(v, viewer, row))).toList();
        long next = page.isEmpty() ? 0 : page.get(0).msgId();
        PageIterator iterator = last ? null : new PageIterator(address, next, limit);
        return new ConversationPage(views, views.size(), last, next, iterator, true, true, true);
    }

    /**
     * Read receipt: up to msg_id everything is READ for the viewer; never backwards, idempotent. The viewer's
     * devices learn of it by a {@code read} change ({"msg_id": m}).
     */
    public boolean ack(String appId, long viewer, long address, long msgId) {
        Viewed v = resolve(appId, viewer, address, "conversation_id")
                .orElseThrow(() -> ApiException.badParameter("conversation_id", "no messages in this conversation"));
        List<Logged> logged = new ArrayList<>();
        Optional<ReadMove> move = database.inTransaction(c -> {
            logged.clear(); // a retried transaction logs again
            Optional<ReadMove> moved = conversations.markReadUpTo(c, v.conversationId(), viewer, msgId);
            if (moved.isPresent() && moved.get().moved()) {
                readEvent(c, appId, viewer, address, v, moved.get());
            }
            if (moved.isPresent()) {
                logged.addAll(changeLog.append(c, List.of(new Change(appId, viewer, ChangeType.READ, address,
                        v.conversationId(), 0, "{\"msg_id\":" + msgId + "}"))));
            }
            return moved;
        });
        changeLog.announce(logged);
        if (v.kind() == ConversationKind.GROUP && move.isPresent() && move.get().moved()) {
            groupReads.fire(new GroupRead(appId, address, v.conversationId(), viewer, move.get()));
        }
        return true;
    }

    /** {@code message.read} for the apps that subscribe, in the receipt's transaction (before its change log). */
    private void readEvent(Connection c, String appId, long viewer, long address, Viewed v, ReadMove move)
            throws SQLException {
        if (!webhooks.wants(c, appId, WebhookEvents.MESSAGE_READ)) {
            return;
        }
        ObjectNode data = webhooks.data();
        data.put("reader_id", viewer);
        data.put("conversation_id", address);
        data.put("kind", v.kind().name().toLowerCase(Locale.ROOT));
        data.put("seq", move.toSeq());
        data.put("msg_id", move.toMsgId());
        data.put("read_ms", System.currentTimeMillis());
        webhooks.queue(c, appId, WebhookEvents.MESSAGE_READ, WebhookEventQueue.conversationKey(appId,
                v.conversationId()), data);
    }

    /** A member's read position in a group moved on (committed): the senders' read frames. */
    public record GroupRead(String appId, long groupId, long conversationId, long readerId, ReadMove move) {}

    /**
     * Who a typing frame of the viewer in this conversation goes to: the peer, or the group's other members (20001,
     * 20002 as a page; 20005 when the group has more than {@code maxGroupMembers}). 10002 for the system address.
     */
    public Set<Long> typingRecipients(String appId, long viewer, long address, int maxGroupMembers) {
        if (address == 0) {
            throw ApiException.badParameter("conversation_id", "nobody types in the system conversation");
        }
        if (!ConversationKind.isGroupId(address)) {
            if (address != viewer && directory.user(appId, address).isEmpty()) {
                throw new ApiException(ErrorCode.USER_NOT_FOUND, "conversation_id: no such user");
            }
            return address == viewer ? Set.of() : Set.of(address);
        }
        Viewed group = resolve(appId, viewer, address, "conversation_id").orElseThrow();
        List<Long> members = database.read(c -> conversations.memberIds(c, group.conversationId(),
                maxGroupMembers + 1));
        if (members.size() > maxGroupMembers) {
            throw new ApiException(ErrorCode.GROUP_TOO_LARGE, "conversation_id: typing is shown in groups of at most "
                    + maxGroupMembers + " members");
        }
        Set<Long> others = new LinkedHashSet<>(members);
        others.remove(viewer);
        return others;
    }

    /**
     * Where a device's acks of messages from this address go: the conversation, checked here (a blocking read; the
     * errors of {@link #resolve}). {@code fixed}: a direct or system conversation, whose members never change, so a
     * connection may keep it for its later acks; a group's membership can change, so it is checked per ack.
     */
    public record AckTarget(long conversationId, boolean fixed) {}

    public AckTarget ackTarget(String appId, long viewer, long address) {
        Viewed v = resolve(appId, viewer, address, "conversation_id")
                .orElseThrow(() -> ApiException.badParameter("conversation_id", "no messages in this conversation"));
        return new AckTarget(v.conversationId(), v.kind() != ConversationKind.GROUP);
    }

    /**
     * A device acknowledged a live message: up to msg_id everything is at least DELIVERED for the viewer. Does not
     * block: completes once the position is committed, in a group commit.
     */
    public CompletableFuture<Boolean> markDelivered(AckTarget target, long viewer, long msgId) {
        return deliveries.submit(new Delivered(target.conversationId(), viewer, msgId));
    }

    /** Hides the conversation and its history up to now, for the viewer only. */
    public boolean delete(String appId, long viewer, long address) {
        Optional<Viewed> viewed = resolve(appId, viewer, address, "conversation_id");
        viewed.ifPresent(v -> changeLog.announce(database.inTransaction(c -> {
            conversations.moveFloorToEnd(c, v.conversationId(), viewer);
            return changeLog.append(c, List.of(new Change(appId, viewer, ChangeType.CONVERSATION_DELETED, address,
                    v.conversationId(), 0, null)));
        })));
        return true;
    }

    public List<UnreadEntry> unread(String appId, long viewer) {
        return database.read(c -> conversations.unread(c, appId, viewer, MAX_UNREAD)).stream()
                .map(row -> UnreadEntry.of(row[0], row[1])).toList();
    }

    /**
     * Finds the viewer's conversation with the address: 0 = system, a group id (20001 unknown, 20002 not a
     * member), else a user (10000 unknown). Empty when the users have no conversation yet.
     */
    Optional<Viewed> resolve(String appId, long viewer, long address, String field) {
        if (address < 0) {
            throw ApiException.badParameter(field, "must be 0 (system) or a user or group id");
        }
        if (address == 0) {
            return database.read(c -> viewed(c, appId, Key.system(viewer), viewer, false));
        }
        if (ConversationKind.isGroupId(address)) {
            return database.read(c -> {
                long conversationId = groups.liveConversation(c, appId, address)
                        .orElseThrow(() -> new ApiException(ErrorCode.GROUP_NOT_FOUND, field + ": no such group"));
                Member member = conversations.member(c, conversationId, viewer)
                        .orElseThrow(() -> new ApiException(ErrorCode.NOT_GROUP_MEMBER));
                return Optional.of(new Viewed(ConversationKind.GROUP, conversationId, member, Optional.empty()));
            });
        }
        if (address != viewer && directory.user(appId, address).isEmpty()) {
            throw new ApiException(ErrorCode.USER_NOT_FOUND, field + ": no such user");
        }
        return database.read(c -> viewed(c, appId, Key.direct(viewer, address), viewer, address != viewer));
    }

    private Optional<Viewed> viewed(Connection c, String appId, Key key, long viewer, boolean withPeer)
            throws SQLException {
        Long peerId = withPeer ? (key.lowId() == viewer ? key.highId() : key.lowId()) : null;
        return conversations.memberView(c, appId, key, viewer, peerId).map(view -> new Viewed(key.kind(),
                view.member().conversationId(), view.member(), view.peer()));
    }

    /**
     * Status for this viewer: of a received message, the viewer's own receipt; of the viewer's own message in a
     * direct conversation, the peer's receipt (the ticks of a chat app); own messages elsewhere are READ.
     */
    private static String status(Viewed v, long viewer, MessageRow row) {
        Member reader = v.member();
        if (row.senderId() == viewer) {
            if (v.peer().isEmpty()) {
                return "READ";
            }
            reader = v.peer().get();
        }
        if (row.seq() <= reader.readSeq()) {
            return "READ";
        }
        return row.seq() <= reader.deliveredSeq() ? "DELIVERED" : "UNREAD";
    }

    /** The message as a viewer with this receipt status sees it; a recalled message is RECALLED for everyone. */
    public static MessageView view(MessageRow row, String status) {
        return MessageView.of(row.msgId(), row.createdMs(), row.recalledMs() != null ? RECALLED : status,
                ContentType.nameOf(row.contentType()), row.content(), row.attachment(), row.config(), row.ext(),
                Address.of(row.senderId(), row.senderDeviceSn()), Address.of(row.targetId(), null), row.editedMs());
    }
}
