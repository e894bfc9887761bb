package io.imcore.auth.user;

import io.imcore.auth.AuthConfig;
import io.imcore.auth.event.AuthEvents;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.store.Database;
import io.imcore.throttle.CredentialThrottle;
import io.imcore.throttle.RateLimit;
import io.imcore.throttle.RateLimiter;
import io.imcore.throttle.ThrottleConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.hibernate.exception.ConstraintViolationException;

/** Users of an app and their devices: registration, (dis)abling, password change, device registration and list. */
@ApplicationScoped
public class UserService {

    private final SecureRandom random = new SecureRandom();
    private final UserStore users;
    private final PasswordHasher hasher;
    private final AuthEvents events;
    private final AuthConfig config;
    private final UserMetrics metrics;
    private final CredentialThrottle throttle;
    private final RateLimiter limiter;
    private final ThrottleConfig throttleConfig;

    public UserService(UserStore users, PasswordHasher hasher, AuthEvents events, AuthConfig config,
            UserMetrics metrics, CredentialThrottle throttle, RateLimiter limiter, ThrottleConfig throttleConfig) {
        this.config = config;
        this.metrics = metrics;
        this.throttle = throttle;
        this.limiter = limiter;
        this.throttleConfig = throttleConfig;
        this.users = users;
        this.hasher = hasher;
        this.events = events;
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

    /**
     * Disables or enables users, all or nothing: one unknown id and nothing changes (10000). Enabling also unlocks
     * an account locked by too many failed logins (docs/throttling.md), after the commit: the throttle keeps its own
     * rows on its own connection.
     */
    public void setDisabled(String appId, List<Long> userIds, boolean disabled) {
        List<String> throttleAccounts = QuarkusTransaction.requiringNew().call(() -> {
            Set<Long> wanted = new LinkedHashSet<>(userIds);
            List<User> known = users.inApp(appId, wanted);
            if (known.size() != wanted.size()) {
                known.forEach(user -> wanted.remove(user.userId));
                throw new ApiException(ErrorCode.USER_NOT_FOUND, "user does not exist: " + wanted.iterator().next());
            }
            List<String> accounts = new ArrayList<>();
            for (User user : known) {
                if (user.disabled != disabled) {
                    user.disabled = disabled;
                    events.publish(AuthEvent.user(AuthEvent.USER_CHANGED, appId, user.userId, user.tokenVersion,
                            disabled));
                }
                if (!disabled) {
                    accounts.add(LoginField.account(user.userId));
                }
            }
            return accounts;
        });
        if (!throttleAccounts.isEmpty()) {
            throttle.unlock(appId, throttleAccounts);
        }
    }

    /**
     * Revokes every token the users hold (their token version moves on, as a password change does), all or nothing:
     * one unknown id and nothing changes (10000). Their live connections close within seconds (message-service).
     */
    public void revokeTokens(String appId, List<Long> userIds) {
        QuarkusTransaction.requiringNew().run(() -> {
            Set<Long> wanted = new LinkedHashSet<>(userIds);
            List<User> known = users.lockInApp(appId, wanted);
            if (known.size() != wanted.size()) {
                known.forEach(user -> wanted.remove(user.userId));
                throw new ApiException(ErrorCode.USER_NOT_FOUND, "user does not exist: " + wanted.iterator().next());
            }
            for (User user : known) {
                user.tokenVersion++;
                events.publish(AuthEvent.user(AuthEvent.USER_CHANGED, appId, user.userId, user.tokenVersion,
                        user.disabled));
            }
        });
    }

    /** Checks the old password, stores the new one and revokes every token issued before. */
    public void changePassword(String appId, long userId, String oldPassword, String newPassword, String address) {
        // the same account key as /token/id: a stolen token cannot guess the password faster than a login could
        String account = LoginField.account(userId);
        throttle.attempt("/user/change_password", appId, account, address);
        User found = QuarkusTransaction.joiningExisting().call(() -> users.find(appId, userId))
                .orElseThrow(() -> new ApiException(ErrorCode.USER_NOT_FOUND));
        if (!hasher.matches(oldPassword, found.passwordHash)) {
            throw new ApiException(ErrorCode.LOGIN_FAILED, "old_password is wrong");
        }
        throttle.succeeded(appId, account, address);
        String hash = hasher.hash(newPassword);
        QuarkusTransaction.requiringNew().run(() -> {
            User user = users.lock(userId);
            user.passwordHash = hash;
            user.tokenVersion++;
            events.publish(AuthEvent.user(AuthEvent.USER_CHANGED, appId, userId, user.tokenVersion, user.disabled));
        });
    }

    /** The user's devices: one select with auto-commit, no transaction of its own (UserStore.devices). */
    public List<DeviceInfo> devices(long userId) {
        return users.devices(userId);
    }

    /** A user of the app by id, with its devices; 10000 when the app has no such user. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public UserProfile profile(String appId, long userId) {
        return profile(users.find(appId, userId));
    }

    /** A user of the app by user name (compared without regard to case, as it is unique), with its devices. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public UserProfile profile(String appId, String username) {
        return profile(users.findByLogin(appId, LoginField.USERNAME, username));
    }

    private UserProfile profile(Optional<User> found) {
        User user = found.orElseThrow(() -> new ApiException(ErrorCode.USER_NOT_FOUND));
        return new UserProfile(user.userId, user.username, user.mobile, user.email, user.disabled,
                devices(user.userId));
    }

    /**
     * Finds the user's device by guid or registers it with the next device_sn and a new push_token (a token
     * operation with a device_guid), in the caller's transaction or one of its own. A new device past
     * {@code im.auth.max-devices-per-user} first removes the user's least recently seen devices.
     */
    public Device registerDevice(String appId, long userId, String deviceGuid) {
        return QuarkusTransaction.joiningExisting().call(() -> {
            User owner = users.lock(userId);
            Optional<Device> known = users.findDevice(userId, deviceGuid);
            if (known.isPresent()) {
                known.get().lastSeenAt = Instant.now();
                return known.get();
            }
            for (Device stale : users.devicesBeyond(userId, config.maxDevicesPerUser() - 1)) {
                users.removeDevice(stale);
                events.publish(AuthEvent.deviceRemoved(appId, userId, stale.deviceSn, stale.deviceGuid));
            }
            Device device = new Device();
            device.userId = userId;
            device.deviceSn = owner.nextDeviceSn++;
            device.deviceGuid = deviceGuid;
            device.pushToken = newPushToken();
            device.createdAt = device.lastSeenAt = Instant.now();
            users.addDevice(device);
            events.publish(AuthEvent.device(appId, userId, device.deviceSn, deviceGuid, device.pushToken));
            return device;
        });
    }

    /** The user and its event in one transaction; a taken name or e-mail or mobile is 10004 naming the field. */
    private long insertUser(String appId, String username, String mobile, String email, String hash) {
        User user = new User();
        user.appId = appId;
        user.username = username;
        user.mobile = mobile;
        user.email = email;
        user.passwordHash = hash;
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                // flushed here, so a taken name fails this call and not the commit
                users.persistAndFlush(user);
                events.publish(AuthEvent.user(AuthEvent.USER_REGISTERED, appId, user.userId, user.tokenVersion,
                        user.disabled));
            });
        } catch (PersistenceException e) {
            if (Database.isUniqueViolation(e)) {
                throw new ApiException(ErrorCode.USER_EXISTS, takenField(e) + " is already registered");
            }
            throw e;
        }
        metrics.userRegistered();
        return user.userId;
    }

    /** The unique index that refused the row names the field. */
    private static String takenField(PersistenceException e) {
        String index = e instanceof ConstraintViolationException violation ? violation.getConstraintName() : null;
        if ("users_app_mobile".equals(index)) {
            return "mobile";
        }
        if ("users_app_email".equals(index)) {
            return "email";
        }
        return "username";
    }

    private String newPushToken() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
