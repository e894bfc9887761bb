package io.imcore.auth.user;

/**
 * The shapes a user's and a device's fields must have in requests, as patterns and the messages that name them
 * (limits documented in docs/api-decisions.md).
 */
public final class UserFieldRules {

    private UserFieldRules() {}

    public static final String USERNAME = "^(?=.*[A-Za-z_])[A-Za-z0-9_]{3,32}$";
    public static final String USERNAME_RULE = "3 to 32 letters, digits or _, not all digits";
    public static final String MOBILE = "^\\+?[0-9]{5,20}$";
    public static final String MOBILE_RULE = "5 to 20 digits, optionally after +";
    public static final String GUID = "^[\\x21-\\x7e]{1,128}$";
    public static final String GUID_RULE = "1 to 128 printable ASCII characters";
    public static final String PASSWORD_RULE = "6 to " + PasswordHasher.MAX_PASSWORD_BYTES + " characters";
}
