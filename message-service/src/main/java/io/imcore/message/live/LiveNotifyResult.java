package io.imcore.message.live;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Answer of POST /internal/live/notify: indexes into the request's devices. */
@RegisterForReflection
@JsonPropertyOrder({"delivered", "offline"})
public record LiveNotifyResult(List<Integer> delivered, List<Integer> offline) {}
