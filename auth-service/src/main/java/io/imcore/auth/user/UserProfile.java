package io.imcore.auth.user;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * A user as the app admin sees it ({@code GET /user/info}): the account, whether it is disabled, and its devices
 * (as {@code GET /user/device/list} lists them).
 */
@RegisterForReflection
public record UserProfile(long userId, String username, String mobile, String email, boolean disabled,
        List<DeviceInfo> devices) {}
