package io.imcore.message.revision;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /message/edit: as {@link RecallRequest}, with the new content, and the new ext (absent: kept). */
@RegisterForReflection
public record EditRequest(Long conversationId, Long msgId, String content, String ext) {}
