package io.imcore.message.conversation;

import java.util.List;

/**
 * Where a stored message landed (the send statement's answer, SendStore), whether its conversation is new, and who
 * of its recipients is connected to which replica: what the live announcement and the offline push mark read.
 */
public record PlacedMessage(long conversationId, long lowId, long highId, long seq, long msgId, boolean created,
        List<Online> online) {

    /** A recipient with a live connection on the replica. */
    public record Online(long userId, String replicaId) {}
}
