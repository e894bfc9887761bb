package io.imcore.auth.user;

import java.util.Locale;
import java.util.regex.Pattern;

/** Login names a user can be found by; user names and e-mails compare without regard to case. */
public enum LoginField {
    USERNAME(User.BY_USERNAME),
    MOBILE(User.BY_MOBILE),
    EMAIL(User.BY_EMAIL);

    private static final Pattern MOBILE_NUMBER = Pattern.compile(UserFieldRules.MOBILE);

    /** The named query that finds a user of an app by this field. */
    final String query;

    LoginField(String query) {
        this.query = query;
    }

    /** A login name is an e-mail when it has an @, a phone number when it is digits, else a user name. */
    public static LoginField of(String loginName) {
        return loginName.contains("@") ? EMAIL : MOBILE_NUMBER.matcher(loginName).matches() ? MOBILE : USERNAME;
    }

    /**
     * The throttle's account key for a login by this field (lower case where the login is case-insensitive). The
     * account's throttle key is the name as given (case-folded where lookups ignore case), never the user found: an
     * unknown name is throttled exactly like a known one, so 10015 tells nothing about who exists.
     */
    public String throttleAccount(String name) {
        return switch (this) {
            case EMAIL -> "email:" + name.toLowerCase(Locale.ROOT);
            case MOBILE -> "mobile:" + name;
            case USERNAME -> "name:" + name.toLowerCase(Locale.ROOT);
        };
    }
}
