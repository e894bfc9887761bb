package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** data of {@code GET /user/token/list}. */
@RegisterForReflection
public record BoundTokenList(List<BoundToken> list) {}
