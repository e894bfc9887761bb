package io.imcore.message.conversation;

/**
 * A stored message; seq is its position in the conversation (for unread counts and receipts). recalledMs and
 * editedMs: when it was recalled, when its content was last edited; null when never.
 */
public record MessageRow(long conversationId, long msgId, long seq, long senderId, Integer senderDeviceSn,
        long targetId, int contentType, String content, String attachment, String config, String ext,
        long createdMs, Long recalledMs, Long editedMs) {}
