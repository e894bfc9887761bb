package io.imcore.auth.user;

import static io.imcore.auth.user.UserFieldRules.PASSWORD_RULE;
import static io.imcore.auth.user.UserFieldRules.USERNAME;
import static io.imcore.auth.user.UserFieldRules.USERNAME_RULE;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** One user of {@code POST /user/register/batch}. */
@RegisterForReflection
public record BatchEntry(
        @NotNull(message = "required") @Pattern(regexp = USERNAME, message = USERNAME_RULE) String username,
        @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String password) {}
