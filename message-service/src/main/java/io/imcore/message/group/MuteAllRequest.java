package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** Body of POST /group/mute_all: while muted, only the owner and the admins send. */
@RegisterForReflection
public record MuteAllRequest(Long groupId, Boolean muted) {}
