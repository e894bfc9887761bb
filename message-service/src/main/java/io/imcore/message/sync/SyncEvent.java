package io.imcore.message.sync;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.message.conversation.MessageView;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.Map;

/**
 * One event of a user's change log as sent (docs/api-decisions.md "Sync"): written straight to the answer or the
 * frame, never built as a JSON tree first, since a page of 100 events with their messages is what a sync allocates.
 *
 * @param fields the change's own fields (a group change's {@code change}, {@code user_ids}...), empty for a message
 * @param message the Message object as the conversation's pages show it now, or null
 */
@RegisterForReflection
@JsonPropertyOrder({"type", "cursor", "conversation_id", "message"})
public record SyncEvent(String type, String cursor, long conversationId, @JsonAnyGetter Map<String, JsonNode> fields,
        @JsonInclude(JsonInclude.Include.NON_NULL) MessageView message) {}
