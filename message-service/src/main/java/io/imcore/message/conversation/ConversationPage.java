package io.imcore.message.conversation;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Conversation page (api.md 2.5). */
@RegisterForReflection
@JsonPropertyOrder({"messages", "messages_size", "is_last", "next_msg_id", "messages_iterator"})
public record ConversationPage(List<MessageView> messages, int messagesSize,
        @JsonProperty("is_last") boolean last, long nextMsgId, PageIterator messagesIterator,
        @JsonProperty("set_is_last") boolean setLast, boolean setMessages, boolean setNextMsgId) {

    /** Where the next (older) page starts: the query of the next GET /message/conversation. */
    @RegisterForReflection
    public record PageIterator(long oppositeId, long msgIdStart, int limit) {}
}
