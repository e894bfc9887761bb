package io.imcore.auth.app;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** The answer of {@code GET /app/list}. */
@RegisterForReflection
public record AppList(List<AppSummary> list) {}
