package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/** Body of {@code POST /user/register/batch}. */
@RegisterForReflection
public record BatchRegisterRequest(@NotEmpty(message = "must hold 1 or more entries") List<@NotNull(message = "required") @Valid BatchEntry> list) {}
