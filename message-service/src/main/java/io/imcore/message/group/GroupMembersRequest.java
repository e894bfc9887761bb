package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of invite and kick. */
@RegisterForReflection
public record GroupMembersRequest(Long groupId, List<Long> userList) {}
