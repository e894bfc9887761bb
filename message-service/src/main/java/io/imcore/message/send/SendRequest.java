package io.imcore.message.send;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of send and notify (api.md 4.4.4; snake_case JSON, decisions.md section 4). */
@RegisterForReflection
public record SendRequest(Integer contentType, String content, String attachment, String config, String ext,
        Long fromUserId, List<Long> targets, Integer type, Long transactionId) {}
