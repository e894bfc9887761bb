package io.imcore.message.group;

/** What the send path and the conversation pages need of a group: its conversation, and whether it still exists. */
public record GroupRow(long groupId, long conversationId, boolean destroyed) {}
