package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** Body of {@code POST/DELETE /user/push/tag} (docs/push-devices.md). */
@RegisterForReflection
public record TagsRequest(List<String> tags) {}
