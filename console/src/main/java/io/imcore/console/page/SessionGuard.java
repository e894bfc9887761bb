package io.imcore.console.page;

import io.quarkus.qute.Template;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The session cookie and the checks every page makes: a page without a live session redirects to the sign-in page;
 * a form whose CSRF token is missing or is not its session's is refused with a page that says so.
 */
@ApplicationScoped
public class SessionGuard {

    public static final String COOKIE = "console_session";
    public static final String PATH = "/console";

    @Inject
    SessionStore sessions;
    @Inject
    Template refused;
    @Inject
    Language language;

    @ConfigProperty(name = "im.console.session.secure-cookie")
    boolean secureCookie;

    /** The signed-in session of the request, or a redirect to the sign-in page (thrown). */
    public ConsoleSession require(HttpHeaders headers) {
        ConsoleSession session = current(headers);
        if (session == null) {
            throw new WebApplicationException(Pages.redirect("/sign-in"));
        }
        return session;
    }

    /** The operator's session, or a refusal for an app admin. */
    public ConsoleSession requireOperator(HttpHeaders headers) {
        ConsoleSession session = require(headers);
        if (!session.isOperator()) {
            throw refusal(Response.Status.FORBIDDEN, language.msg().refused_operator_only());
        }
        return session;
    }

    /** The app admin's session, or a refusal for the operator (who signs in without an app). */
    public ConsoleSession requireAdmin(HttpHeaders headers) {
        ConsoleSession session = require(headers);
        if (!session.isAdmin()) {
            throw refusal(Response.Status.FORBIDDEN, language.msg().refused_admin_only());
        }
        return session;
    }

    /** The session of the cookie; null when none is live. */
    public ConsoleSession current(HttpHeaders headers) {
        var cookie = headers.getCookies().get(COOKIE);
        return cookie == null ? null : sessions.find(cookie.getValue()).orElse(null);
    }

    /** Throws the refusal page unless {@code token} is the session's CSRF token (compared in constant time). */
    public void checkCsrf(ConsoleSession session, String token) {
        if (session == null || token == null || !MessageDigest.isEqual(
                session.csrfToken().getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8))) {
            throw refusal(Response.Status.FORBIDDEN, language.msg().refused_csrf());
        }
    }

    public WebApplicationException refusal(Response.Status status, String message) {
        return new WebApplicationException(Response.status(status).type(MediaType.TEXT_HTML_TYPE)
                .entity(refused.data("message", message).render()).build());
    }

    public NewCookie cookie(ConsoleSession session) {
        return new NewCookie.Builder(COOKIE).value(session.id()).path(PATH).httpOnly(true).secure(secureCookie)
                .sameSite(NewCookie.SameSite.STRICT).build();
    }

    public NewCookie expiredCookie() {
        return new NewCookie.Builder(COOKIE).value("").path(PATH).httpOnly(true).secure(secureCookie)
                .sameSite(NewCookie.SameSite.STRICT).maxAge(0).build();
    }
}
