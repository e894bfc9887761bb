package io.imcore.auth.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.imcore.auth.service.PasswordHasher;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Wire shapes of auth-service (snake_case JSON). Limits are documented in docs/api-decisions.md.
 * Registered for reflection with their nested records ({@code ignoreNested} is false) for native images.
 */
@RegisterForReflection
public final class Dtos {

    private Dtos() {}

    static final String USERNAME = "^(?=.*[A-Za-z_])[A-Za-z0-9_]{3,32}$";
    static final String USERNAME_RULE = "3 to 32 letters, digits or _, not all digits";
    static final String MOBILE = "^\\+?[0-9]{5,20}$";
    static final String MOBILE_RULE = "5 to 20 digits, optionally after +";
    static final String GUID = "^[\\x21-\\x7e]{1,128}$";
    static final String GUID_RULE = "1 to 128 printable ASCII characters";
    static final String PASSWORD_RULE = "6 to " + PasswordHasher.MAX_PASSWORD_BYTES + " characters";

    public record CreateAppRequest(@Size(max = 128, message = "at most 128 characters") String name) {}

    public record AppCredentials(String appId, String adminToken) {}

    /** One row of {@code GET /app/list}: what the apps table holds, created_at in epoch milliseconds. */
    public record AppSummary(String appId, String name, int adminTokenVersion, long createdAt) {}

    public record AppList(List<AppSummary> list) {}

    public record RegisterRequest(
            @NotNull(message = "required") @Pattern(regexp = USERNAME, message = USERNAME_RULE) String username,
            @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String password,
            @Pattern(regexp = MOBILE, message = MOBILE_RULE) String mobile,
            @Email(message = "not an e-mail address") @Size(max = 254, message = "at most 254 characters") String email) {}

    public record RegisteredUser(long userId, String username, String mobile, String email) {}

    public record BatchEntry(
            @NotNull(message = "required") @Pattern(regexp = USERNAME, message = USERNAME_RULE) String username,
            @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String password) {}

    public record BatchRegisterRequest(@NotEmpty(message = "must hold 1 or more entries") List<@NotNull(message = "required") @Valid BatchEntry> list) {}

    public record BatchResult(Long userId, String username, boolean success, String reason) {}

    public record UserIdList(@NotEmpty(message = "must hold 1 to 500 user ids") @Size(max = 500, message = "must hold 1 to 500 user ids")
            List<@NotNull(message = "required") @Positive(message = "must be a positive user id") Long> list) {}

    public record ChangePasswordRequest(
            @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String oldPassword,
            @NotNull(message = "required") @Size(min = 6, max = 72, message = PASSWORD_RULE) String newPassword) {}

    public record TokenByIdRequest(
            @NotNull(message = "required") @Positive(message = "must be a positive user id") Long userId,
            @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String password,
            @Pattern(regexp = GUID, message = GUID_RULE) String deviceGuid) {}

    public record TokenByLoginRequest(
            @NotNull(message = "required") @Size(min = 1, max = 254, message = "1 to 254 characters") String loginName,
            @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String password,
            @Pattern(regexp = GUID, message = GUID_RULE) String deviceGuid) {}

    public record TokenByNameRequest(
            @NotNull(message = "required") @Size(min = 1, max = 32, message = "1 to 32 characters") String name,
            @NotNull(message = "required") @Size(min = 1, max = 72, message = "1 to 72 characters") String password,
            @Pattern(regexp = GUID, message = GUID_RULE) String deviceGuid) {}

    /**
     * api.md 2.2 plus device_sn (decisions.md 3). store_token and access_key_secret stay absent until a file
     * store exists; push_token and device_sn are present when device_guid was sent.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TokenInfo(String token, long expire, long userId, String publicKey, int encryptType,
            String pushToken, Integer deviceSn, String storeToken, String accessKeySecret) {}

    /** A device of the caller; times in epoch milliseconds. */
    public record Device(int deviceSn, String deviceGuid, String pushToken, long createdAt, long lastSeenAt) {}
}
