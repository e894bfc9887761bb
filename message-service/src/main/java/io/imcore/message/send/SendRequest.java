package io.imcore.message.send;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of send and notify (api.md 4.4.4; snake_case JSON, decisions.md section 4). */
@RegisterForReflection
public record SendRequest(Integer contentType, String content, String attachment, String config, String ext,
        Long fromUserId, List<Long> targets, Integer type, Long transactionId) {

    /** The most targets one call may name. */
    static final int MAX_TARGETS = 500;

    /**
     * What a call costs in its quotas: its targets (users, or groups), at least one, at most what a call may name
     * (more is refused with 10002 anyway).
     */
    static int units(SendRequest body) {
        return body == null || body.targets() == null ? 1 : Math.clamp(body.targets().size(), 1, MAX_TARGETS);
    }
}
