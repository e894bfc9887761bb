package io.imcore.message.send.request;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * Body of send and notify (api.md 4.4.4; snake_case JSON, decisions.md section 4). In a package of its own: moderation
 * reads and rewrites it before the send feature stores it, without depending on that feature.
 */
@RegisterForReflection
public record SendRequest(Integer contentType, String content, String attachment, String config, String ext,
        Long fromUserId, List<Long> targets, Integer type, Long transactionId) {

    /** The most targets one call may name. */
    public static final int MAX_TARGETS = 500;

    /**
     * What a call costs in its quotas: its targets (users, or groups); one for a call without targets or with more
     * than a call may name, which its checks refuse (10002) before anything is sent.
     */
    public static int units(SendRequest body) {
        int targets = body == null || body.targets() == null ? 0 : body.targets().size();
        return targets < 1 || targets > MAX_TARGETS ? 1 : targets;
    }
}
