package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of POST /group/create. */
@RegisterForReflection
public record CreateGroupRequest(String name, String description, String avatar, List<Long> userList) {}
