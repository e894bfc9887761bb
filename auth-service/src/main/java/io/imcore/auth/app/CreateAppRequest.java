package io.imcore.auth.app;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /app/create}; limits are documented in docs/api-decisions.md. An absent name names the app after
 * its app_id; a blank one is a mistake (an empty form field) and is refused.
 */
@RegisterForReflection
public record CreateAppRequest(
        @Size(max = 128, message = "at most 128 characters")
        @Pattern(regexp = "(?s).*\\S.*", message = "must not be blank (leave it out to name the app after its app_id)")
        String name) {}
