package io.imcore.message.changelog;

/**
 * One change for one user's log. {@code peerId}: the conversation as this user sees it (the peer user, the group,
 * 0 for the system). {@code msgId}: the message whose current Message object the event carries (message, recall,
 * edit), 0 for none. {@code payload}: the event's other fields as a JSON object text, or null.
 */
public record Change(String appId, long userId, ChangeType type, long peerId, long conversationId, long msgId,
        String payload) {}
