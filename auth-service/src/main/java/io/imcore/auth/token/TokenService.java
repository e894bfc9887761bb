package io.imcore.auth.service;

import io.imcore.auth.api.Dtos.TokenInfo;
import io.imcore.auth.store.Device;
import io.imcore.auth.store.DeviceRepository;
import io.imcore.auth.store.User;
import io.imcore.auth.store.UserRepository;
import io.imcore.auth.store.UserRepository.LoginField;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.events.AuthEvent;
import io.imcore.common.throttle.CredentialThrottle;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** The three token operations of api.md 4.1-4.3: check the password, register the device, sign a token. */
@ApplicationScoped
public class TokenService {

    /** TLS only: the connection is not encrypted by the service itself (decisions.md 3). */
    private static final int ENCRYPT_TYPE_TLS_ONLY = 0;
    private static final Pattern MOBILE = Pattern.compile("^\\+?[0-9]{5,20}$");

    private final SecureRandom random = new SecureRandom();
    private final UserRepository users;
    private final DeviceRepository devices;
    private final PasswordHasher hasher;
    private final TokenIssuer issuer;
    private final AuthEvents events;
    private final AuthMetrics metrics;
    private final CredentialThrottle throttle;

    public TokenService(UserRepository users, DeviceRepository devices, PasswordHasher hasher, TokenIssuer issuer,
            AuthEvents events, AuthMetrics metrics, CredentialThrottle throttle) {
        this.metrics = metrics;
        this.throttle = throttle;
        this.users = users;
        this.devices = devices;
        this.hasher = hasher;
        this.issuer = issuer;
        this.events = events;
    }

    public TokenInfo byUserId(String appId, long userId, String password, String deviceGuid, String address) {
        return issue("id", appId, "id:" + userId, address, () -> users.find(appId, userId),
                password, deviceGuid);
    }

    /** A login name is an e-mail when it has an @, a phone number when it is digits, else a user name. */
    public TokenInfo byLoginName(String appId, String loginName, String password, String deviceGuid, String address) {
        LoginField field = loginName.contains("@") ? LoginField.EMAIL
                : MOBILE.matcher(loginName).matches() ? LoginField.MOBILE : LoginField.USERNAME;
        return issue("login", appId, throttleAccount(field, loginName), address,
                () -> users.findByLogin(appId, field, loginName), password, deviceGuid);
    }

    public TokenInfo byUserName(String appId, String name, String password, String deviceGuid, String address) {
        return issue("user", appId, throttleAccount(LoginField.USERNAME, name), address,
                () -> users.findByLogin(appId, LoginField.USERNAME, name), password, deviceGuid);
    }

    /**
     * The account's throttle key is the name as given (case-folded where lookups ignore case), never the user found:
     * an unknown name is throttled exactly like a known one, so 10015 tells nothing about who exists.
     */
    /** The throttle's account key for a login by this field (lower case where the login is case-insensitive). */
    static String throttleAccount(LoginField field, String name) {
        return switch (field) {
            case EMAIL -> "email:" + name.toLowerCase(Locale.ROOT);
            case MOBILE -> "mobile:" + name;
            case USERNAME -> "name:" + name.toLowerCase(Locale.ROOT);
        };
    }

    /**
     * Throttle first (a blocked call costs no bcrypt), then the password; unknown name and wrong password are one
     * answer after the same bcrypt work, and both count as a failure.
     */
    private TokenInfo issue(String operation, String appId, String account, String address,
            Supplier<Optional<User>> lookup, String password, String deviceGuid) {
        throttle.check("/token/" + operation, appId, account, address);
        // one select: no transaction of its own (a BEGIN/COMMIT round trip less); the device step below has one
        Optional<User> found = lookup.get();
        if (found.isEmpty()) {
            hasher.burnVerification(password);
            throw refused(appId, account, address);
        }
        User user = found.get();
        if (!hasher.matches(password, user.passwordHash)) {
            throw refused(appId, account, address);
        }
        throttle.succeeded(appId, account);
        if (user.disabled) {
            metrics.loginRefused("disabled");
            throw new ApiException(ErrorCode.USER_DISABLED);
        }
        Device device = deviceGuid == null ? null : registerDevice(appId, user.userId, deviceGuid);
        Integer deviceSn = device == null ? null : device.deviceSn;
        TokenIssuer.Issued token = issuer.userToken(appId, user.userId, user.tokenVersion, deviceSn);
        metrics.tokenIssued(operation);
        return new TokenInfo(token.token(), token.expire(), user.userId, token.publicKey(), ENCRYPT_TYPE_TLS_ONLY,
                device == null ? null : device.pushToken, deviceSn, null, null);
    }

    private ApiException refused(String appId, String account, String address) {
        throttle.failed(appId, account, address);
        metrics.loginRefused("credentials");
        return new ApiException(ErrorCode.LOGIN_FAILED);
    }

    /** Finds the user's device by guid or registers it with the next device_sn and a new push_token. */
    private Device registerDevice(String appId, long userId, String deviceGuid) {
        return QuarkusTransaction.joiningExisting().call(() -> {
            User owner = users.lock(userId);
            Optional<Device> known = devices.findByGuid(userId, deviceGuid);
            if (known.isPresent()) {
                known.get().lastSeenAt = Instant.now();
                return known.get();
            }
            Device device = new Device();
            device.userId = userId;
            device.deviceSn = owner.nextDeviceSn++;
            device.deviceGuid = deviceGuid;
            device.pushToken = newPushToken();
            device.createdAt = device.lastSeenAt = Instant.now();
            devices.persistAndFlush(device);
            events.publish(AuthEvent.device(appId, userId, device.deviceSn, deviceGuid, device.pushToken));
            return device;
        });
    }

    private String newPushToken() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
