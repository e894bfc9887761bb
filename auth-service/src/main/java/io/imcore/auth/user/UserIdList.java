package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/** Body of {@code PUT /user/disable}, {@code PUT /user/enable} and {@code POST /user/revoke_tokens}. */
@RegisterForReflection
public record UserIdList(@NotEmpty(message = "must hold 1 to 500 user ids") @Size(max = 500, message = "must hold 1 to 500 user ids")
        List<@NotNull(message = "required") @Positive(message = "must be a positive user id") Long> list) {}
