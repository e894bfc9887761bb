package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One member as /group/member_list shows it: role "owner" or "member". */
@RegisterForReflection
public record GroupMember(long userId, String role, long joinedAt) {}
