package io.imcore.auth.token;

import io.imcore.auth.user.Device;
import io.imcore.auth.user.LoginField;
import io.imcore.auth.user.PasswordHasher;
import io.imcore.auth.user.User;
import io.imcore.auth.user.UserService;
import io.imcore.auth.user.UserStore;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.throttle.CredentialThrottle;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.function.Supplier;

/** The three token operations of api.md 4.1-4.3: check the password, register the device, sign a token. */
@ApplicationScoped
public class TokenService {

    /** TLS only: the connection is not encrypted by the service itself (decisions.md 3). */
    private static final int ENCRYPT_TYPE_TLS_ONLY = 0;

    private final UserStore users;
    private final UserService userService;
    private final PasswordHasher hasher;
    private final TokenIssuer issuer;
    private final TokenMetrics metrics;
    private final CredentialThrottle throttle;

    public TokenService(UserStore users, UserService userService, PasswordHasher hasher, TokenIssuer issuer,
            TokenMetrics metrics, CredentialThrottle throttle) {
        this.metrics = metrics;
        this.throttle = throttle;
        this.users = users;
        this.userService = userService;
        this.hasher = hasher;
        this.issuer = issuer;
    }

    public TokenInfo byUserId(String appId, long userId, String password, String deviceGuid, String address) {
        return issue("id", appId, LoginField.account(userId), address, () -> users.find(appId, userId),
                password, deviceGuid);
    }

    /** A login name is an e-mail, a phone number or a user name ({@link LoginField#of}). */
    public TokenInfo byLoginName(String appId, String loginName, String password, String deviceGuid, String address) {
        LoginField field = LoginField.of(loginName);
        return issue("login", appId, field.unknownAccount(loginName), address,
                () -> users.findByLogin(appId, field, loginName), password, deviceGuid);
    }

    public TokenInfo byUserName(String appId, String name, String password, String deviceGuid, String address) {
        return issue("user", appId, LoginField.USERNAME.unknownAccount(name), address,
                () -> users.findByLogin(appId, LoginField.USERNAME, name), password, deviceGuid);
    }

    /**
     * Finds the user, counts the attempt (a blocked call costs no bcrypt), then checks the password. The attempt is
     * counted under the user found whatever name the caller gave ({@link LoginField#account}), or under
     * {@code unknownAccount} when there is none; unknown name and wrong password are one answer after the same
     * bcrypt work.
     */
    private TokenInfo issue(String operation, String appId, String unknownAccount, String address,
            Supplier<Optional<User>> lookup, String password, String deviceGuid) {
        // one select: no transaction of its own (a BEGIN/COMMIT round trip less); the device step below has one
        Optional<User> found = lookup.get();
        String account = found.map(user -> LoginField.account(user.userId)).orElse(unknownAccount);
        throttle.attempt("/token/" + operation, appId, account, address);
        if (found.isEmpty()) {
            hasher.burnVerification(password);
            throw refused();
        }
        User user = found.get();
        if (!hasher.matches(password, user.passwordHash)) {
            throw refused();
        }
        throttle.succeeded(appId, account, address);
        if (user.disabled) {
            metrics.loginRefused("disabled");
            throw new ApiException(ErrorCode.USER_DISABLED);
        }
        Device device = deviceGuid == null ? null : userService.registerDevice(appId, user.userId, deviceGuid);
        Integer deviceSn = device == null ? null : device.deviceSn;
        TokenIssuer.Issued token = issuer.userToken(appId, user.userId, user.tokenVersion, deviceSn);
        metrics.tokenIssued(operation);
        return new TokenInfo(token.token(), token.expire(), user.userId, token.publicKey(), ENCRYPT_TYPE_TLS_ONLY,
                device == null ? null : device.pushToken, deviceSn);
    }

    /** The attempt was counted already ({@link CredentialThrottle#attempt}). */
    private ApiException refused() {
        metrics.loginRefused("credentials");
        return new ApiException(ErrorCode.LOGIN_FAILED);
    }
}
