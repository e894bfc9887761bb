package io.imcore.message.revision;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.context.RequestContext;
import io.imcore.common.store.Database;
import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.changelog.Logged;
import io.imcore.message.conversation.ContentType;
import io.imcore.message.conversation.ConversationService;
import io.imcore.message.moderation.Moderation;
import io.imcore.message.offlinepush.OfflinePushQueue;
import io.imcore.message.revision.RevisionStore.Stored;
import io.imcore.message.send.SendService;
import io.imcore.message.webhook.WebhookEventQueue;
import io.imcore.message.webhook.WebhookEvents;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Recall and edit of a stored message (docs/api-decisions.md "Recall and edit"). Each is one transaction that locks
 * the message row, checks who may change it and whether the app's window is still open, changes the row, queues the
 * webhook event and, for a recall, the offline push replacement and the badge counts; after the commit every
 * connected device of every member gets the {@code recall} or {@code edit} frame ({@link #tellMembers}).
 */
@ApplicationScoped
public class MessageRevisions {

    private final Database database;
    private final ConversationService conversations;
    private final RevisionStore store;
    private final RevisionWindows windows;
    private final Moderation moderation;
    private final OfflinePushQueue offlinePush;
    private final WebhookEventQueue webhooks;
    private final ChangeLog changeLog;

    public MessageRevisions(Database database, ConversationService conversations, RevisionStore store,
            RevisionWindows windows, Moderation moderation, OfflinePushQueue offlinePush, WebhookEventQueue webhooks,
            ChangeLog changeLog) {
        this.database = database;
        this.conversations = conversations;
        this.store = store;
        this.windows = windows;
        this.moderation = moderation;
        this.offlinePush = offlinePush;
        this.webhooks = webhooks;
        this.changeLog = changeLog;
    }

    /** The message's conversation as the caller addressed it. */
    private record Target(String appId, long viewer, long conversationId, long msgId) {}

    /**
     * The sender within the app's recall window, or an admin (act-as, any time). The message keeps its place with
     * empty content, attachment and ext; recalling it again answers true and changes nothing.
     */
    public boolean recall(RequestContext caller, RecallRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        Target target = target(caller, body.conversationId(), body.msgId());
        boolean admin = caller.isAdmin();
        long window = windows.of(target.appId()).recall().toMillis();
        Optional<Runnable> tell = inTransaction(c -> {
            Stored message = locked(c, target);
            if (!admin && message.senderId() != target.viewer()) {
                throw new ApiException(ErrorCode.NOT_MESSAGE_SENDER,
                        "msg_id: only its sender or an admin may recall it");
            }
            if (message.recalledMs() != null) {
                return Optional.<Runnable>empty();
            }
            long now = System.currentTimeMillis();
            if (!admin && now - message.createdMs() > window) {
                throw new ApiException(ErrorCode.RECALL_WINDOW_PASSED, "msg_id: sent more than " + window / 1000
                        + " s ago");
            }
            store.recall(c, target.conversationId(), target.msgId(), now);
            offlinePush.recall(c, target.appId(), target.conversationId(), target.msgId(), message.seq(),
                    message.senderId());
            ObjectNode data = event(message);
            data.put("recalled_by", target.viewer());
            data.put("by_admin", admin);
            data.put("recalled_ms", now);
            webhooks.queue(target.appId(), WebhookEvents.MESSAGE_RECALLED, eventKey(target), data);
            return Optional.of(tellMembers(c, target, ChangeType.RECALL));
        });
        tell.ifPresent(Runnable::run);
        return true;
    }

    /**
     * The sender's new text for a TEXT message within the app's edit window: the same checks as a send's content
     * (size, not empty, the app's word filter); {@code ext} replaces the stored one when given.
     */
    public boolean edit(RequestContext caller, EditRequest body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        if (body.content() == null || body.content().isEmpty()) {
            throw ApiException.badParameter("content", "required: the new text");
        }
        SendService.checkSize("content", body.content(), SendService.MAX_CONTENT_BYTES);
        SendService.checkSize("ext", body.ext(), SendService.MAX_FIELD_BYTES);
        Target target = target(caller, body.conversationId(), body.msgId());
        String content = moderation.filterEdit(target.appId(), body.content());
        long window = windows.of(target.appId()).edit().toMillis();
        Runnable tell = inTransaction(c -> {
            Stored message = locked(c, target);
            if (message.senderId() != target.viewer()) {
                throw new ApiException(ErrorCode.NOT_MESSAGE_SENDER, "msg_id: only its sender may edit it");
            }
            if (message.contentType() != ContentType.TEXT.ordinal() || message.recalledMs() != null) {
                throw new ApiException(ErrorCode.MESSAGE_NOT_EDITABLE, message.recalledMs() != null
                        ? "msg_id: the message was recalled" : "msg_id: not a TEXT message");
            }
            long now = System.currentTimeMillis();
            if (now - message.createdMs() > window) {
                throw new ApiException(ErrorCode.EDIT_WINDOW_PASSED, "msg_id: sent more than " + window / 1000
                        + " s ago");
            }
            store.edit(c, target.conversationId(), target.msgId(), content, body.ext(), now);
            ObjectNode data = event(message);
            data.put("content", content);
            data.put("ext", body.ext());
            data.put("edited_ms", now);
            webhooks.queue(target.appId(), WebhookEvents.MESSAGE_EDITED, eventKey(target), data);
            return tellMembers(c, target, ChangeType.EDIT);
        });
        tell.run();
        return true;
    }

    /**
     * The work in a transaction of its own, which the webhook queue joins ({@link WebhookEventQueue}); committed when
     * this returns, so what the work returns to do after the commit runs after it.
     */
    private <T> T inTransaction(Database.Work<T> work) {
        return QuarkusTransaction.requiringNew().call(() -> database.inTransaction(work));
    }

    /**
     * Every member's log gets the change, as the transaction's last statement (the log's head locks are the last it
     * takes); the returned step, run after the commit, announces it to their connected devices, each frame with its
     * cursor and the message as its page shows it now ({@link ChangeLog}).
     */
    private Runnable tellMembers(Connection c, Target target, ChangeType type) throws SQLException {
        List<Change> changes = new ArrayList<>();
        for (long[] member : store.members(c, target.conversationId())) {
            changes.add(new Change(target.appId(), member[0], type, member[1], target.conversationId(),
                    target.msgId(), "{\"msg_id\":" + target.msgId() + "}"));
        }
        List<Logged> logged = changeLog.append(c, changes);
        return () -> changeLog.announce(logged);
    }

    /**
     * The caller's conversation at the address (the errors of /message/ack: 10000, 20001, 20002, 10002); an admin
     * acting for one group (group_id header) changes messages of that group only (10010).
     */
    private Target target(RequestContext caller, Long address, Long msgId) {
        if (address == null || address < 0) {
            throw ApiException.badParameter("conversation_id", "required: the peer user, the group or 0");
        }
        if (msgId == null || msgId < 1) {
            throw ApiException.badParameter("msg_id", "required: a positive integer");
        }
        Long actingGroup = caller.actingGroupId();
        if (actingGroup != null && !actingGroup.equals(address)) {
            throw new ApiException(ErrorCode.NO_PERMISSION, "group_id header: only that group's messages");
        }
        long viewer = caller.requireUserId();
        long conversationId = conversations.ackTarget(caller.appId(), viewer, address).conversationId();
        return new Target(caller.appId(), viewer, conversationId, msgId);
    }

    private Stored locked(Connection c, Target target) throws SQLException {
        return store.lock(c, target.conversationId(), target.msgId()).orElseThrow(() ->
                ApiException.badParameter("msg_id", "no such message in this conversation"));
    }

    /** The webhook event's fields every change has: the message as message.created names it. */
    private ObjectNode event(Stored message) {
        ObjectNode data = webhooks.data();
        data.put("msg_id", message.msgId());
        data.put("from_user_id", message.senderId());
        data.put("to_id", message.targetId());
        return data;
    }

    /** One conversation's events are delivered in order, with its messages' (webhook.WebhookEventFeed's key). */
    private static String eventKey(Target target) {
        return target.appId() + ":" + target.conversationId();
    }
}
