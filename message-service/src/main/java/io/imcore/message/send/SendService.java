package io.imcore.message.send;

import static io.imcore.message.conversation.ConversationKind.SYSTEM_SENDER;

import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.api.StorableText;
import io.imcore.common.context.IdentityDirectory;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.AppUsers;
import io.imcore.message.conversation.ContentType;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationStore;
import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.file.FileAttachments;
import io.imcore.message.group.GroupStore;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.Logged;
import io.imcore.message.moderation.Moderation;
import io.imcore.message.offlinepush.OfflinePushQueue;
import io.imcore.message.send.SendPlan.DirectSend;
import io.imcore.message.send.SendPlan.GroupCommitted;
import io.imcore.message.send.SendPlan.GroupSend;
import io.imcore.message.send.SendPlan.Repeated;
import io.imcore.message.send.SendPlan.StoredAlone;
import io.imcore.message.webhook.WebhookEventQueue;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * POST|PUT /message/send and /message/notify (decisions.md section 4), one path for both: {@link #send} checks the
 * whole request, chooses how it is written ({@link SendPlan}), then writes it: one message per target conversation
 * (a group message once) and the sender's read position in one statement, with the de-duplication claim in the same
 * transaction, and the announcements to live connections and to offline push.
 */
@ApplicationScoped
public class SendService {

    /** Who sends: a user (/message/send) or the system (/message/notify); the name tags imcore.messages.sent. */
    public enum Operation {
        SEND, NOTIFY;

        final String tag = name().toLowerCase(Locale.ROOT);
    }

    public static final int TYPE_USER = 1;
    public static final int TYPE_GROUP = 2;
    public static final int MAX_CONTENT_BYTES = 64 * 1024;
    public static final int MAX_FIELD_BYTES = 16 * 1024;
    private static final String ANSWER = "true";

    private final Database database;
    private final IdentityDirectory directory;
    private final AppUsers users;
    private final ConversationStore conversations;
    private final SendStore sends;
    private final GroupStore groups;
    private final DedupStore dedup;
    private final ChangeLog changeLog;
    private final SendCommitter committer;
    private final OfflinePushQueue offlinePush;
    private final FileAttachments attachments;
    private final MessageConfig config;
    private final MeterRegistry registry;
    private final Moderation moderation;
    private final WebhookEventQueue webhooks;

    public SendService(Database database, IdentityDirectory directory, AppUsers users, ConversationStore conversations,
            SendStore sends, GroupStore groups, DedupStore dedup, ChangeLog changeLog, SendCommitter committer,
            OfflinePushQueue offlinePush, FileAttachments attachments, MessageConfig config, MeterRegistry registry,
            Moderation moderation, WebhookEventQueue webhooks) {
        this.database = database;
        this.directory = directory;
        this.users = users;
        this.conversations = conversations;
        this.sends = sends;
        this.groups = groups;
        this.dedup = dedup;
        this.changeLog = changeLog;
        this.committer = committer;
        this.offlinePush = offlinePush;
        this.attachments = attachments;
        this.config = config;
        this.registry = registry;
        this.moderation = moderation;
        this.webhooks = webhooks;
    }

    /**
     * A message: for {@link Operation#SEND} from a user (the token's user, or for an admin token from_user_id or the
     * user_id header); for {@link Operation#NOTIFY} from the system (admin token only: from uid 0, into conversation
     * 0 of each user, or into groups). The checks run on the calling thread and throw; the answer completes once the
     * message is committed, on the committer's thread for a group-committed send, so no caller holds a thread while
     * it waits. Everything before the plan's write only reads, so a call that stopped where it would block can be
     * made again ({@link PlainRoutes.Handler}).
     */
    public CompletableFuture<Boolean> send(Operation operation, RequestContext caller, SendRequest body) {
        SendRequest request = validate(body);
        checkActingGroup(caller, request);
        if (operation == Operation.NOTIFY) {
            return stored(operation, request, plan(caller.appId(), SYSTEM_SENDER, null, request, true));
        }
        long sender = sender(caller, request);
        Integer senderDevice = caller.isAdmin() ? null : caller.deviceSn();
        CompletableFuture<SendRequest> moderated = moderation.moderate(caller.appId(), sender, request);
        if (moderated.isDone() && !moderated.isCompletedExceptionally()) {
            // no hook was called: go on here (an attempt on the event loop may still stop at the plan's reads)
            return moderatedSend(operation, caller, sender, senderDevice, request, moderated.join());
        }
        // the hook answers on the HTTP client's thread: the plan's reads and the write go on on a worker
        return moderated.thenComposeAsync(allowed -> moderatedSend(operation, caller, sender, senderDevice, request,
                allowed), Infrastructure.getDefaultWorkerPool());
    }

    /** The send of what moderation let through; a masked or replaced message is checked again. */
    private CompletableFuture<Boolean> moderatedSend(Operation operation, RequestContext caller, long sender,
            Integer senderDevice, SendRequest request, SendRequest allowed) {
        SendRequest checked = allowed == request ? request : validate(allowed);
        return stored(operation, checked, plan(caller.appId(), sender, senderDevice, checked, caller.isAdmin()));
    }

    private CompletableFuture<Boolean> stored(Operation operation, SendRequest request, SendPlan plan) {
        return write(plan).thenApply(first -> {
            if (first.isPresent()) {
                return Boolean.parseBoolean(first.get());
            }
            registry.counter("imcore.messages.sent", "operation", operation.tag,
                    "target_type", request.type() == TYPE_USER ? "user" : "group")
                    .increment(plan instanceof StoredAlone alone ? alone.lowIds().length : 1);
            return Boolean.parseBoolean(ANSWER);
        });
    }

    /** Forgets transaction_id claims older than the window, in chunks. */
    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void expireDedup() {
        database.autoCommit(c -> dedup.expire(c, config.dedupWindow()));
    }

    /** An admin acting for one group (group_id header) sends to that group only, as it manages only that group. */
    private static void checkActingGroup(RequestContext caller, SendRequest request) {
        Long acting = caller.actingGroupId();
        if (acting != null && (request.type() != TYPE_GROUP || request.targets().stream().anyMatch(t -> !acting.equals(t)))) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "group_id header: only that group may be the target");
        }
    }

    private long sender(RequestContext caller, SendRequest request) {
        Long from = request.fromUserId();
        if (!caller.isAdmin()) {
            long self = caller.token().userId();
            if (from != null && from != self) {
                throw new ApiException(ErrorCode.NO_PERMISSION, "from_user_id: must be the token's user");
            }
            return self;
        }
        Long acting = caller.userIdOrNull();
        if (from == null && acting == null) {
            throw ApiException.badParameter("from_user_id", "required with an admin token (or the user_id header)");
        }
        if (from != null && acting != null && !from.equals(acting)) {
            throw ApiException.badParameter("from_user_id", "differs from the user_id header");
        }
        long sender = from != null ? from : acting;
        if (from != null) {
            IdentityDirectory.UserState state = directory.user(caller.appId(), sender)
                    .orElseThrow(() -> new ApiException(ErrorCode.USER_NOT_FOUND, "from_user_id: user does not exist"));
            if (state.disabled()) {
                throw new ApiException(ErrorCode.USER_DISABLED, "from_user_id: user is disabled");
            }
        }
        return sender;
    }

    private static SendRequest validate(SendRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.contentType() == null) {
            throw ApiException.badParameter("content_type", "required");
        }
        if (!ContentType.valid(body.contentType())) {
            throw ApiException.badParameter("content_type", "must be 0 to 7");
        }
        if (body.type() == null) {
            throw ApiException.badParameter("type", "required");
        }
        if (body.type() != TYPE_USER && body.type() != TYPE_GROUP) {
            throw ApiException.badParameter("type", "must be 1 (users) or 2 (groups)");
        }
        checkSize("content", body.content(), MAX_CONTENT_BYTES);
        checkSize("attachment", body.attachment(), MAX_FIELD_BYTES);
        checkSize("config", body.config(), MAX_FIELD_BYTES);
        checkSize("ext", body.ext(), MAX_FIELD_BYTES);
        if (body.targets() == null || body.targets().isEmpty()) {
            throw ApiException.badParameter("targets", "1 to " + SendRequest.MAX_TARGETS + " ids required");
        }
        if (body.targets().size() > SendRequest.MAX_TARGETS) {
            throw ApiException.badParameter("targets", "at most " + SendRequest.MAX_TARGETS + " ids");
        }
        for (Long target : body.targets()) {
            if (target == null || target <= 0) {
                throw ApiException.badParameter("targets", "ids must be positive integers");
            }
        }
        return body;
    }

    /** A field's text must be storable and at most {@code maxBytes} in UTF-8 (10002); an edit checks it alike. */
    public static void checkSize(String field, String value, int maxBytes) {
        StorableText.check(field, value);
        // a UTF-8 character is at most 4 bytes: count bytes only when the length alone cannot decide
        if (value != null && value.length() * 4L > maxBytes && value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw ApiException.badParameter(field, "longer than " + maxBytes + " bytes");
        }
    }

    /**
     * Checks what the request's kind of send needs checked and chooses how it is written; reads only. The common
     * sends, to one user or one group, are group-committed with this replica's concurrent ones.
     */
    private SendPlan plan(String appId, long sender, Integer senderDevice, SendRequest request, boolean admin) {
        Long transactionId = request.transactionId();
        if (transactionId != null) {
            // a repeat gets the first call's answer even if the call would now fail (say the sender left the group)
            Optional<String> first = database.read(c -> dedup.previous(c, appId, sender, transactionId,
                    config.dedupWindow()));
            if (first.isPresent()) {
                return new Repeated(first.get());
            }
        }
        // a file's attachment: one indexed look-up of the file (none for the other attachments)
        SendStore.Message message = message(sender, senderDevice, request,
                attachments.resolve(appId, sender, request.contentType(), request.attachment()));
        List<Long> targets = List.copyOf(new LinkedHashSet<>(request.targets()));
        int n = targets.size();
        if (request.type() == TYPE_GROUP) {
            if (n == 1) {
                long groupId = targets.get(0);
                if (!ConversationKind.isGroupId(groupId)) {
                    throw new ApiException(ErrorCode.GROUP_NOT_FOUND, "targets: no such group " + groupId);
                }
                // the committer checks the group and the membership in the transaction that stores the message
                return new GroupSend(appId, groupId, message, !admin, transactionId, ANSWER);
            }
            checkGroups(appId, targets, sender, admin);
            long[] groupIds = new long[n];
            for (int i = 0; i < n; i++) {
                groupIds[i] = targets.get(i);
            }
            return new StoredAlone(appId, ConversationKind.GROUP, groupIds, new long[n], message, transactionId);
        }
        // type 1: every target must be a user of the app, else nothing is sent
        users.requireExisting(appId, targets, "targets");
        if (sender != SYSTEM_SENDER && n == 1) {
            long peer = targets.get(0);
            return new DirectSend(new SendStore.DirectMessage(appId, Math.min(sender, peer), Math.max(sender, peer),
                    message), transactionId, ANSWER);
        }
        long[] lows = new long[n];
        long[] highs = new long[n];
        if (sender == SYSTEM_SENDER) {
            // into conversation 0 of each user
            for (int i = 0; i < n; i++) {
                lows[i] = targets.get(i);
            }
            return new StoredAlone(appId, ConversationKind.SYSTEM, lows, highs, message, transactionId);
        }
        for (int i = 0; i < n; i++) {
            lows[i] = Math.min(sender, targets.get(i));
            highs[i] = Math.max(sender, targets.get(i));
        }
        return new StoredAlone(appId, ConversationKind.DIRECT, lows, highs, message, transactionId);
    }

    /**
     * type 2 with several targets: every target must be a live group (20001) with the sender as member (20002), not
     * muted (20003), unless admin. A send to one group is checked by the committer instead.
     */
    private void checkGroups(String appId, List<Long> targets, long sender, boolean admin) {
        database.read(c -> {
            List<Long> missing = new ArrayList<>();
            List<Long> notMember = new ArrayList<>();
            List<Long> muted = new ArrayList<>();
            for (long id : targets) {
                OptionalLong conversation = ConversationKind.isGroupId(id) ? groups.liveConversation(c, appId, id)
                        : OptionalLong.empty();
                if (conversation.isEmpty()) {
                    missing.add(id);
                    continue;
                }
                if (!admin && conversations.member(c, conversation.getAsLong(), sender).isEmpty()) {
                    notMember.add(id);
                } else if (!admin && groups.isMuted(c, conversation.getAsLong(), sender)) {
                    muted.add(id);
                }
            }
            if (!missing.isEmpty()) {
                throw new ApiException(ErrorCode.GROUP_NOT_FOUND, "targets: no such group "
                        + AppUsers.joinIds(missing));
            }
            if (!notMember.isEmpty()) {
                throw new ApiException(ErrorCode.NOT_GROUP_MEMBER, "targets: sender is not a member of group "
                        + AppUsers.joinIds(notMember));
            }
            if (!muted.isEmpty()) {
                throw new ApiException(ErrorCode.GROUP_MEMBER_MUTED, "targets: sender is muted in group "
                        + AppUsers.joinIds(muted));
            }
            return null;
        });
    }

    /**
     * Writes the plan; completes once it is committed: empty when this call stored the message, else the answer of
     * the first call with the same transaction_id.
     */
    private CompletableFuture<Optional<String>> write(SendPlan plan) {
        if (plan instanceof GroupCommitted queued) {
            return committer.submit(queued);
        }
        if (plan instanceof Repeated repeated) {
            return CompletableFuture.completedFuture(Optional.of(repeated.firstAnswer()));
        }
        StoredAlone alone = (StoredAlone) plan;
        // one transaction even without a claim to make, so that the offline push mark commits with the messages
        List<Logged> logged = new ArrayList<>();
        Optional<String> first = database.inTransaction(c -> {
            Optional<String> claimed = alone.transactionId() == null ? Optional.empty()
                    : dedup.claim(c, alone.appId(), alone.message().senderId(), alone.transactionId(),
                            config.dedupWindow(), ANSWER);
            if (claimed.isEmpty()) {
                logged.addAll(store(c, alone));
            }
            return claimed;
        });
        changeLog.announce(logged); // after the commit: only committed messages are announced
        return CompletableFuture.completedFuture(first);
    }

    /**
     * Stores the plan's messages, marks them for offline push, queues their webhook events and logs them last;
     * returns the logged changes.
     */
    private List<Logged> store(Connection c, StoredAlone plan) throws SQLException {
        long sender = plan.message().senderId();
        SendStore.Result result = sends.append(c, plan.appId(), plan.kind(), plan.lowIds(), plan.highIds(),
                plan.message());
        List<PlacedMessage> existing = result.placed().stream().filter(p -> !p.created()).toList();
        if (plan.kind() == ConversationKind.DIRECT && result.senderReadsMoved() < existing.size()) {
            // the peer created the conversation concurrently: its member rows were not yet visible to the statement
            conversations.markRead(c, sender, existing.stream().mapToLong(PlacedMessage::conversationId).toArray(),
                    existing.stream().mapToLong(PlacedMessage::seq).toArray());
        }
        offlinePush.enqueue(c, plan.appId(), result.placed());
        List<Change> changes = new ArrayList<>();
        List<WebhookEventQueue.CreatedMessage> created = new ArrayList<>();
        MessageChanges messageChanges = new MessageChanges(c);
        for (PlacedMessage placed : result.placed()) {
            messageChanges.add(changes, plan.appId(), plan.kind(), placed);
            created.add(plan.message().created(plan.appId(), plan.kind(), placed));
        }
        webhooks.messagesCreated(c, created);
        return changeLog.append(c, changes);
    }

    private static SendStore.Message message(long sender, Integer senderDevice, SendRequest request,
            String attachment) {
        return new SendStore.Message(sender, senderDevice, request.contentType(),
                request.content() == null ? "" : request.content(), attachment, request.config(),
                request.ext(), System.currentTimeMillis());
    }
}
