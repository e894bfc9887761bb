package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** A group as /group/create, /group/info and /group/user_joined show it. */
@RegisterForReflection
public record GroupInfo(long groupId, String name, String description, String avatar, Long ownerId,
        int memberCount, long createdAt, String announcement, boolean mutedAll) {}
