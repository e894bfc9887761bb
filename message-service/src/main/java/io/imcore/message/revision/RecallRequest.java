package io.imcore.message.revision;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /message/recall: the conversation as the caller sees it (as /message/ack's) and the message. */
@RegisterForReflection
public record RecallRequest(Long conversationId, Long msgId) {}
