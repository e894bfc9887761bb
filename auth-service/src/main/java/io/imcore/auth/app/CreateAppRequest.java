package io.imcore.auth.app;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /app/create}; limits are documented in docs/api-decisions.md. */
@RegisterForReflection
public record CreateAppRequest(@Size(max = 128, message = "at most 128 characters") String name) {}
