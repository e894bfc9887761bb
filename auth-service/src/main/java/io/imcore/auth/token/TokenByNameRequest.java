package io.imcore.auth.token;

import static io.imcore.auth.user.UserFieldRules.GUID;
import static io.imcore.auth.user.UserFieldRules.GUID_RULE;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /token/user}. */
@RegisterForReflection
public record TokenByNameRequest(
        @NotNull(message = "required") @Size(min = 1, max = 32, message = "1 to 32 characters") String name,
        @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String password,
        @Pattern(regexp = GUID, message = GUID_RULE) String deviceGuid) {}
