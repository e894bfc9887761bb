package io.imcore.auth.user;

import at.favre.lib.crypto.bcrypt.BCrypt;
import io.imcore.auth.AuthConfig;
import io.imcore.common.api.ApiException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;

/** bcrypt password hashes (salted, slow by design); the cost is configuration, stored inside each hash. */
@ApplicationScoped
public class PasswordHasher {

    /** bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated. */
    public static final int MAX_PASSWORD_BYTES = 72;

    private final int cost;
    private final String dummyHash;
    private final Counter verifications;

    public PasswordHasher(AuthConfig config, MeterRegistry registry) {
        this.cost = config.bcryptCost();
        this.verifications = Counter.builder("imcore.auth.password.verifications")
                .description("bcrypt verifications of a password (logins, password changes), the burnt ones included")
                .register(registry);
        this.dummyHash = hash("not-a-real-password");
    }

    public String hash(String password) {
        return BCrypt.withDefaults().hashToString(cost, checked(password).toCharArray());
    }

    public boolean matches(String password, String hash) {
        byte[] candidate = checked(password).getBytes(StandardCharsets.UTF_8);
        verifications.increment();
        return BCrypt.verifyer().verify(candidate, hash.getBytes(StandardCharsets.UTF_8)).verified;
    }

    /** Spends the time of one verification, so an unknown login name answers as slowly as a wrong password. */
    public void burnVerification(String password) {
        matches(password, dummyHash);
    }

    private static String checked(String password) {
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw ApiException.badParameter("password", "at most " + MAX_PASSWORD_BYTES + " bytes");
        }
        return password;
    }
}
