package io.imcore.auth.user;

import static io.imcore.auth.user.UserFieldRules.MOBILE;
import static io.imcore.auth.user.UserFieldRules.MOBILE_RULE;
import static io.imcore.auth.user.UserFieldRules.PASSWORD_RULE;
import static io.imcore.auth.user.UserFieldRules.USERNAME;
import static io.imcore.auth.user.UserFieldRules.USERNAME_RULE;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/** Body of {@code POST /user/register/v2}. */
@RegisterForReflection
public record RegisterRequest(
        @NotNull(message = "required") @Pattern(regexp = USERNAME, message = USERNAME_RULE) String username,
        @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String password,
        @Pattern(regexp = MOBILE, message = MOBILE_RULE) String mobile,
        @Email(message = "not an e-mail address") @Size(max = 254, message = "at most 254 characters") String email) {}
