package io.imcore.message.conversation;

/**
 * Where a stored message landed (the send statement's answer, SendStore) and whether its conversation is new: what
 * the offline push mark and the message's changes in its users' logs read.
 */
public record PlacedMessage(long conversationId, long lowId, long highId, long seq, long msgId, boolean created) {}
