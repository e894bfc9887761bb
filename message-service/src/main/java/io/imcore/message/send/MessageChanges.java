package io.imcore.message.send;

import io.imcore.message.changelog.Change;
import io.imcore.message.changelog.ChangeLog;
import io.imcore.message.changelog.ChangeType;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.PlacedMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code message} changes of stored messages, one per user who must learn of it (both users of a direct
 * message, the sender's other devices included; the user of a notification; every member of a group), each with
 * the conversation as that user sees it. A group's members are read once per conversation and transaction.
 */
final class MessageChanges {

    private final Connection c;
    private final Map<Long, long[]> members = new HashMap<>();

    MessageChanges(Connection c) {
        this.c = c;
    }

    void add(List<Change> changes, String appId, ConversationKind kind, PlacedMessage placed) throws SQLException {
        switch (kind) {
            case DIRECT -> {
                changes.add(change(appId, placed.lowId(), placed.highId(), placed));
                if (placed.highId() != placed.lowId()) {
                    changes.add(change(appId, placed.highId(), placed.lowId(), placed));
                }
            }
            case SYSTEM -> changes.add(change(appId, placed.lowId(), 0, placed));
            case GROUP -> {
                long[] ids = members.get(placed.conversationId());
                if (ids == null) {
                    ids = ChangeLog.members(c, placed.conversationId());
                    members.put(placed.conversationId(), ids);
                }
                for (long member : ids) {
                    changes.add(change(appId, member, placed.lowId(), placed));
                }
            }
        }
    }

    private static Change change(String appId, long userId, long peerId, PlacedMessage placed) {
        return new Change(appId, userId, ChangeType.MESSAGE, peerId, placed.conversationId(), placed.msgId(), null);
    }
}
