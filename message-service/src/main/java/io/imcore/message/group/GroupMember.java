package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One member as /group/member_list shows it: role "owner", "admin" or "member"; muted_until epoch ms or null. */
@RegisterForReflection
public record GroupMember(long userId, String role, long joinedAt, Long mutedUntil) {}
