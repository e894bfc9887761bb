package io.imcore.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "im.auth")
public interface AuthConfig {

    /** bcrypt cost factor of stored password hashes (log2 of the rounds). */
    @WithDefault("10")
    int bcryptCost();

    /** Most entries in one admin batch registration (each costs one password hash). */
    @WithDefault("100")
    int batchRegisterMax();

    /**
     * Devices a user keeps (docs/api-decisions.md "Devices"): a new device_guid past it removes the user's least
     * recently seen devices, so no user can grow the push registry, or one push's records, without end.
     */
    @WithDefault("20")
    int maxDevicesPerUser();
}
