package io.imcore.message.conversation;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** Unread conversation entry (api.md 2.6). */
@RegisterForReflection
@JsonPropertyOrder({"conversation_id", "num"})
public record UnreadEntry(Address conversationId, long num, boolean setConversationId, boolean setNum) {

    public static UnreadEntry of(long peerId, long num) {
        return new UnreadEntry(Address.of(peerId, null), num, true, true);
    }
}
