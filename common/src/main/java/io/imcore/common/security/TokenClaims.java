package io.imcore.common.security;

/**
 * The checked content of an access token. Claim names on the wire: {@code app}, {@code role},
 * {@code sub} (user id; absent for admin tokens), {@code tv} (token version), {@code dsn} (device_sn), {@code exp}.
 */
public record TokenClaims(String appId, Role role, Long userId, int tokenVersion, Integer deviceSn, long expiresAt) {

    public static final String APP = "app";
    public static final String ROLE = "role";
    public static final String TOKEN_VERSION = "tv";
    public static final String DEVICE_SN = "dsn";
    public static final String ISSUER = "imcore-auth";

    public boolean isAdmin() {
        return role == Role.ADMIN;
    }
}
