package io.imcore.message.send;

import io.imcore.message.send.request.SendRequest;
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
import io.imcore.message.file.FileAttachments;
import io.imcore.message.moderation.Moderation;
import io.imcore.message.send.SendPlan.DirectSend;
import io.imcore.message.send.SendPlan.FanOutSend;
import io.imcore.message.send.SendPlan.GroupSend;
import io.imcore.message.send.SendPlan.OneTargetSend;
import io.imcore.message.send.SendPlan.Repeated;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * POST|PUT /message/send and /message/notify (decisions.md section 4), one path for both: {@link #send} checks the
 * whole request and chooses how it is written ({@link SendPlan}); {@link SendCommitter} writes it: one message per
 * target conversation (a group message once) and the sender's read position in one statement, with the
 * de-duplication claim in the same transaction, and the announcements to live connections and to offline push.
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
    private final DedupStore dedup;
    private final SendCommitter committer;
    private final FileAttachments attachments;
    private final MessageConfig config;
    private final MeterRegistry registry;
    private final Moderation moderation;

    public SendService(Database database, IdentityDirectory directory, AppUsers users, DedupStore dedup,
            SendCommitter committer, FileAttachments attachments, MessageConfig config, MeterRegistry registry,
            Moderation moderation) {
        this.database = database;
        this.directory = directory;
        this.users = users;
        this.dedup = dedup;
        this.committer = committer;
        this.attachments = attachments;
        this.config = config;
        this.registry = registry;
        this.moderation = moderation;
    }

    /**
     * A message: for {@link Operation#SEND} from a user (the token's user, or for an admin token from_user_id or the
     * user_id header); for {@link Operation#NOTIFY} from the system (admin token only: from uid 0, into conversation
     * 0 of each user, or into groups). The checks run on the calling thread and throw; the answer completes once the
     * message is committed, on the committer's thread for a group-committed send, so no caller holds a thread while
     * it waits. Everything before the plan's write only reads, so a call that stopped where it would block can be
     * made again ({@link io.imcore.common.route.PlainRoutes.Handler}).
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

    /**
     * Writes the plan; completes once it is committed, with this call's answer or the first call's with the same
     * transaction_id, or exceptionally with the refusal of a send to groups.
     */
    private CompletableFuture<Boolean> stored(Operation operation, SendRequest request, SendPlan plan) {
        return switch (plan) {
            case Repeated repeated -> CompletableFuture.completedFuture(Boolean.parseBoolean(repeated.firstAnswer()));
            case OneTargetSend send -> committer.submit(send)
                    .thenApply(outcome -> answer(operation, request, 1, outcome));
            case FanOutSend send -> CompletableFuture.completedFuture(
                    answer(operation, request, send.lowIds().length, committer.storeNow(send)));
        };
    }

    /** The answer to a written plan of {@code messages} messages: counted when this call stored them. */
    private boolean answer(Operation operation, SendRequest request, int messages, SendCommitter.Outcome outcome) {
        if (outcome.refusal() != null) {
            throw outcome.refusal();
        }
        if (outcome.firstAnswer() != null) {
            return Boolean.parseBoolean(outcome.firstAnswer());
        }
        registry.counter("imcore.messages.sent", "operation", operation.tag,
                "target_type", request.type() == TYPE_USER ? "user" : "group").increment(messages);
        return Boolean.parseBoolean(ANSWER);
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
            // the committer checks the groups and the membership in the transaction that stores the message
            if (n == 1) {
                return new GroupSend(appId, targets.get(0), message, !admin, transactionId, ANSWER);
            }
            long[] groupIds = new long[n];
            for (int i = 0; i < n; i++) {
                groupIds[i] = targets.get(i);
            }
            return new FanOutSend(appId, ConversationKind.GROUP, groupIds, new long[n], message, !admin,
                    transactionId, ANSWER);
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
            return new FanOutSend(appId, ConversationKind.SYSTEM, lows, highs, message, false, transactionId, ANSWER);
        }
        for (int i = 0; i < n; i++) {
            lows[i] = Math.min(sender, targets.get(i));
            highs[i] = Math.max(sender, targets.get(i));
        }
        return new FanOutSend(appId, ConversationKind.DIRECT, lows, highs, message, false, transactionId, ANSWER);
    }

    private static SendStore.Message message(long sender, Integer senderDevice, SendRequest request,
            String attachment) {
        return new SendStore.Message(sender, senderDevice, request.contentType(),
                request.content() == null ? "" : request.content(), attachment, request.config(),
                request.ext(), System.currentTimeMillis());
    }
}
