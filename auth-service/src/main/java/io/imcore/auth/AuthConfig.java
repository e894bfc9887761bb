package io.imcore.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

@ConfigMapping(prefix = "im.auth")
public interface AuthConfig {

    /** bcrypt cost factor of stored password hashes (log2 of the rounds). */
    @WithDefault("10")
    int bcryptCost();

    /** Most entries in one admin batch registration (each costs one password hash). */
    @WithDefault("100")
    int batchRegisterMax();

    /**
     * How long one admin batch registration may work (hashing and storing) before it stores nothing and answers
     * 50003: below the gateway's 9 s, so the caller never gets the gateway's answer for a batch that then commits.
     */
    @WithDefault("7S")
    Duration batchRegisterBudget();

    /**
     * Devices a user keeps (docs/api-decisions.md "Devices"): a new device_guid past it removes the user's least
     * recently seen devices, so no user can grow the push registry, or one push's records, without end.
     */
    @WithDefault("20")
    int maxDevicesPerUser();
}
