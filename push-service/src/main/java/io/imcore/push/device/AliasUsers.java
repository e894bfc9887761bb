package io.imcore.push.device;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * data of {@code GET /push/alias/users}: the users with a device carrying the alias, ascending, at most
 * {@link DeviceRegistryService#ALIAS_USERS_MAX}; {@code more} when the app has further ones.
 */
@RegisterForReflection
public record AliasUsers(String alias, List<Long> userIds, boolean more) {}
