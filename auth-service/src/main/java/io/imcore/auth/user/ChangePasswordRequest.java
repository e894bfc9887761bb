package io.imcore.auth.user;

import static io.imcore.auth.user.UserFieldRules.PASSWORD_RULE;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /user/change_password}. */
@RegisterForReflection
public record ChangePasswordRequest(
        @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String oldPassword,
        @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String newPassword) {}
