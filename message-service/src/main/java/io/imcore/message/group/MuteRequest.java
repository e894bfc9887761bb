package io.imcore.message.group;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of POST /group/mute: the members' sends are refused for duration_seconds (0 lifts the mute). */
@RegisterForReflection
public record MuteRequest(Long groupId, List<Long> userList, Long durationSeconds) {}
