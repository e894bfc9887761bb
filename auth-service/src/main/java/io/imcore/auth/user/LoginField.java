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
     * The throttle's account key of a user: one per user, whatever name the login gave (id, user name, e-mail or
     * mobile), so that the names of one account share one budget of wrong passwords.
     */
    public static String account(long userId) {
        return "id:" + userId;
    }

    /**
     * The throttle's account key of a login name that names no user: the name as given, case-folded where lookups
     * ignore case, so that an unknown name is counted, delayed and locked exactly like a known user.
     */
    public String unknownAccount(String name) {
        return switch (this) {
            case EMAIL -> "email:" + name.toLowerCase(Locale.ROOT);
            case MOBILE -> "mobile:" + name;
            case USERNAME -> "name:" + name.toLowerCase(Locale.ROOT);
        };
    }
}
