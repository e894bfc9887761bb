package io.imcore.auth.service;

import io.imcore.auth.api.Dtos.BatchEntry;
import io.imcore.auth.api.Dtos.BatchResult;
import io.imcore.auth.api.Dtos.Device;
import io.imcore.auth.api.Dtos.RegisteredUser;
import io.imcore.auth.api.Dtos.RegisterRequest;
import io.imcore.auth.config.AuthConfig;
import io.imcore.auth.store.DeviceStore;
import io.imcore.auth.store.UserRow;
import io.imcore.auth.store.UserStore;
import io.imcore.auth.store.UserStore.LoginField;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.DatabaseException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.Database;
import io.imcore.common.throttle.CredentialThrottle;
import io.imcore.common.throttle.RateLimit;
import io.imcore.common.throttle.RateLimiter;
import io.imcore.common.throttle.ThrottleConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

@ApplicationScoped
public class UserService {

    private final Database database;
    private final UserStore users;
    private final DeviceStore devices;
    private final PasswordHasher hasher;
    private final Outbox outbox;
    private final AuthConfig config;
    private final AuthMetrics metrics;
    private final CredentialThrottle throttle;
    private final RateLimiter limiter;
    private final ThrottleConfig throttleConfig;

    public UserService(Database database, UserStore users, DeviceStore devices, PasswordHasher hasher, Outbox outbox,
            AuthConfig config, AuthMetrics metrics, CredentialThrottle throttle, RateLimiter limiter,
            ThrottleConfig throttleConfig) {
        this.metrics = metrics;
        this.throttle = throttle;
        this.limiter = limiter;
        this.throttleConfig = throttleConfig;
        this.database = database;
        this.users = users;
        this.devices = devices;
        this.hasher = hasher;
        this.outbox = outbox;
        this.config = config;
    }

    /**
     * Registers a user; of two concurrent registrations of one name the database lets exactly one win. Limited per
     * (app, client address) before any work is done; {@code address} null = exempt (docs/throttling.md).
     */
    public RegisteredUser register(String appId, RegisterRequest request, String address) {
        if (address != null) {
            limiter.take("registration:" + appId + ":" + address, RateLimit.of(throttleConfig.registration()),
                    "/user/register/v2", CredentialThrottle.ADDRESS);
        }
        String mobile = blankToNull(request.mobile());
        String email = blankToNull(request.email());
        String hash = hasher.hash(request.password());
        long userId = insertUser(appId, request.username(), mobile, email, hash);
        return new RegisteredUser(userId, request.username(), mobile, email);
    }

    /** Registers each entry on its own: one taken name does not stop the others. */
    public List<BatchResult> registerBatch(String appId, List<BatchEntry> entries) {
        if (entries.size() > config.batchRegisterMax()) {
            throw ApiException.badParameter("list", "at most " + config.batchRegisterMax() + " entries");
        }
        List<String> hashes = entries.parallelStream().map(e -> hasher.hash(e.password())).toList();
        List<BatchResult> results = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            String username = entries.get(i).username();
            try {
                long userId = insertUser(appId, username, null, null, hashes.get(i));
                results.add(new BatchResult(userId, username, true, null));
            } catch (ApiException e) {
                results.add(new BatchResult(null, username, false, e.getMessage()));
            }
        }
        return results;
    }

    /**
     * Disables or enables users, all or nothing: one unknown id and nothing changes (10000). Enabling also unlocks
     * an account locked by too many failed logins (docs/throttling.md).
     */
    public void setDisabled(String appId, List<Long> userIds, boolean disabled) {
        Set<Long> wanted = new LinkedHashSet<>(userIds);
        List<String> throttleAccounts = new ArrayList<>();
        database.inTransaction(c -> {
            List<Long> known = users.existing(c, appId, wanted);
            if (known.size() != wanted.size()) {
                wanted.removeAll(known);
                throw new ApiException(ErrorCode.USER_NOT_FOUND, "user does not exist: " + wanted.iterator().next());
            }
            for (UserRow changed : users.setDisabled(c, appId, wanted, disabled)) {
                publish(c, AuthEvent.user(AuthEvent.USER_CHANGED, appId, changed.userId(), changed.tokenVersion(),
                        disabled));
            }
            if (!disabled) {
                for (UserRow user : users.findByIds(c, appId, wanted)) {
                    throttleAccounts.addAll(throttleAccounts(user));
                }
            }
            return null;
        });
        if (!throttleAccounts.isEmpty()) {
            throttle.unlock(appId, throttleAccounts);
        }
    }

    /** Every key a login can count this user's failures under: by id, and by each login name it has. */
    private static List<String> throttleAccounts(UserRow user) {
        List<String> accounts = new ArrayList<>(List.of("id:" + user.userId()));
        accounts.add(TokenService.throttleAccount(LoginField.USERNAME, user.username()));
        if (user.email() != null) {
            accounts.add(TokenService.throttleAccount(LoginField.EMAIL, user.email()));
        }
        if (user.mobile() != null) {
            accounts.add(TokenService.throttleAccount(LoginField.MOBILE, user.mobile()));
        }
        return accounts;
    }

    /** Checks the old password, stores the new one and revokes every token issued before. */
    public void changePassword(String appId, long userId, String oldPassword, String newPassword, String address) {
        // the same account key as /token/id: a stolen token cannot guess the password faster than a login could
        String account = "id:" + userId;
        throttle.check("/user/change_password", appId, account, address);
        UserRow user = database.read(c -> users.findById(c, appId, userId))
                .orElseThrow(() -> new ApiException(ErrorCode.USER_NOT_FOUND));
        if (!hasher.matches(oldPassword, user.passwordHash())) {
            throttle.failed(appId, account, address);
            throw new ApiException(ErrorCode.LOGIN_FAILED, "old_password is wrong");
        }
        throttle.succeeded(appId, account);
        String hash = hasher.hash(newPassword);
        database.inTransaction(c -> {
            int version = users.changePassword(c, userId, hash);
            publish(c, AuthEvent.user(AuthEvent.USER_CHANGED, appId, userId, version, user.disabled()));
            return null;
        });
    }

    public List<Device> devices(long userId) {
        return database.read(c -> devices.list(c, userId)).stream()
                .map(d -> new Device(d.deviceSn(), d.deviceGuid(), d.pushToken(),
                        d.createdAt().toEpochMilli(), d.lastSeenAt().toEpochMilli()))
                .toList();
    }

    private long insertUser(String appId, String username, String mobile, String email, String hash) {
        try {
            long userId = database.inTransaction(c -> {
                long id = users.insert(c, appId, username, mobile, email, hash);
                publish(c, AuthEvent.user(AuthEvent.USER_REGISTERED, appId, id, 1, false));
                return id;
            });
            metrics.userRegistered();
            return userId;
        } catch (DatabaseException e) {
            if (Database.isUniqueViolation(e)) {
                throw new ApiException(ErrorCode.USER_EXISTS, takenField(e.getMessage()) + " is already registered");
            }
            throw e;
        }
    }

    private void publish(java.sql.Connection c, AuthEvent event) throws java.sql.SQLException {
        outbox.append(c, AuthEvent.TOPIC, event.key(), event);
    }

    private static String takenField(String error) {
        if (error != null && error.contains("users_app_mobile")) {
            return "mobile";
        }
        if (error != null && error.contains("users_app_email")) {
            return "email";
        }
        return "username";
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
