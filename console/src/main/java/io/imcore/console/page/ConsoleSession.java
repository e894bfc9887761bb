package io.imcore.console.page;

import io.quarkus.qute.TemplateData;
import java.time.Instant;
import java.util.Map;

/**
 * A signed-in browser, kept server side (SessionStore): the browser holds only the session id in an HttpOnly cookie.
 * There is no anonymous session: the sign-in form's CSRF token lives in a signed cookie (signin.SignInFormToken).
 */
@TemplateData
public final class ConsoleSession {

    public enum Role { OPERATOR, ADMIN }

    private final String id;
    private final Role role;
    private final String appId;
    private final String secret;
    private final String csrfToken;
    private final Instant createdAt;
    private volatile Instant lastSeen;
    /** A one-time message for the next page (the result of a form that redirected). */
    private volatile String notice;

    ConsoleSession(String id, Role role, String appId, String secret, String csrfToken, Instant now) {
        this.id = id;
        this.role = role;
        this.appId = appId;
        this.secret = secret;
        this.csrfToken = csrfToken;
        this.createdAt = now;
        this.lastSeen = now;
    }

    public String id() {
        return id;
    }

    public Role role() {
        return role;
    }

    public boolean isOperator() {
        return role == Role.OPERATOR;
    }

    public boolean isAdmin() {
        return role == Role.ADMIN;
    }

    public String appId() {
        return appId;
    }

    public String csrfToken() {
        return csrfToken;
    }

    /** Who holds the credential: the operator, or the admins of one app (who share its admin token). */
    String account() {
        return role == Role.OPERATOR ? "operator" : "app " + appId;
    }

    Instant createdAt() {
        return createdAt;
    }

    Instant lastSeen() {
        return lastSeen;
    }

    public void setNotice(String notice) {
        this.notice = notice;
    }

    /** The pending notice, cleared as it is read. */
    public String takeNotice() {
        String pending = notice;
        notice = null;
        return pending;
    }

    void touch(Instant now) {
        lastSeen = now;
    }

    /** The credential headers of the service APIs: the admin token with its app, or the platform key. */
    public Map<String, String> credentials() {
        return switch (role) {
            case ADMIN -> Map.of("app_id", appId, "access-token", secret);
            case OPERATOR -> Map.of("platform-key", secret);
        };
    }

    /** The admin's credentials acting as one user of the app (the services' {@code user_id} header). */
    public Map<String, String> credentialsAsUser(long userId) {
        return Map.of("app_id", appId, "access-token", secret, "user_id", Long.toString(userId));
    }
}
