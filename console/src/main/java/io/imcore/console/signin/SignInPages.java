package io.imcore.console.signin;

import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.imcore.console.page.SessionStore;
import io.quarkus.qute.Template;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Cookie;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Sign-in and sign-out. A credential is accepted when a service accepts it: the admin token on an admin-only read of
 * push-service, the platform key on auth-service's operator app list. Only a successful sign-in makes a session, with
 * a new id (so no id known before the sign-in is ever valid); the form's CSRF token is a signed cookie
 * ({@link SignInFormToken}), so the page itself keeps nothing on the server.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class SignInPages extends ServicePages {

    @Inject
    SessionStore sessions;
    @Inject
    SignInFormToken formToken;
    @Inject
    SignInThrottle throttle;
    @Inject
    Template signIn;
    @Inject
    Language language;

    @GET
    @Path("sign-in")
    public Response page(@Context HttpHeaders headers) {
        if (guard.current(headers) != null) {
            return Pages.redirect("/");
        }
        return form(Response.Status.OK, null, "admin", "");
    }

    @POST
    @Path("sign-in")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signIn(@Context HttpHeaders headers, @Context HttpServerRequest request,
            @FormParam("csrf") String csrf, @FormParam("kind") String kind, @FormParam("app_id") String appId,
            @FormParam("admin_token") String adminToken, @FormParam("platform_key") String platformKey) {
        Cookie formCookie = headers.getCookies().get(SignInFormToken.COOKIE);
        if (!formToken.accepts(formCookie == null ? null : formCookie.getValue(), csrf)) {
            throw guard.refusal(Response.Status.FORBIDDEN, language.msg().refused_sign_in_form());
        }
        String address = request.remoteAddress() == null ? "unknown" : request.remoteAddress().hostAddress();
        boolean operator = "operator".equals(kind);
        String shownAppId = appId == null ? "" : appId.strip();
        long wait = throttle.waitSeconds(address);
        if (wait > 0) {
            return form(Response.Status.TOO_MANY_REQUESTS, language.msg().signin_throttled(wait), kind, shownAppId);
        }
        String error = operator ? checkOperator(platformKey) : checkAdmin(shownAppId, adminToken);
        if (error != null) {
            throttle.failed(address);
            return form(Response.Status.UNAUTHORIZED, error, kind, shownAppId);
        }
        throttle.succeeded(address);
        ConsoleSession previous = guard.current(headers);
        if (previous != null) {
            sessions.end(previous.id());
        }
        ConsoleSession session = operator
                ? sessions.create(ConsoleSession.Role.OPERATOR, null, platformKey.strip())
                : sessions.create(ConsoleSession.Role.ADMIN, shownAppId, adminToken.strip());
        return Pages.redirectTo(operator ? "/apps" : "/").cookie(guard.cookie(session), formToken.expiredCookie())
                .build();
    }

    @POST
    @Path("sign-out")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response signOut(@Context HttpHeaders headers, @FormParam("csrf") String csrf) {
        ConsoleSession session = guard.require(headers);
        guard.checkCsrf(session, csrf);
        sessions.end(session.id());
        return Pages.redirectTo("/sign-in").cookie(guard.expiredCookie()).build();
    }

    private String checkAdmin(String appId, String adminToken) {
        if (appId.isEmpty() || adminToken == null || adminToken.isBlank()) {
            return language.msg().signin_enter_admin();
        }
        Answer answer = backend.get(Service.PUSH, "/push/certificate?provider=1&environment=1",
                java.util.Map.of("app_id", appId, "access-token", adminToken.strip()));
        return answer.ok() ? null : language.msg().signin_refused(answer.error());
    }

    private String checkOperator(String platformKey) {
        if (platformKey == null || platformKey.isBlank()) {
            return language.msg().signin_enter_key();
        }
        Answer answer = backend.get(Service.AUTH, "/app/list", java.util.Map.of("platform-key", platformKey.strip()));
        return answer.ok() ? null : language.msg().signin_refused(answer.error());
    }

    /** The sign-in page with a fresh form token, in its cookie and in the form. */
    private Response form(Response.Status status, String error, String kind, String appId) {
        String token = formToken.issue();
        return Response.status(status).entity(signIn.data("csrf", token).data("error", error)
                .data("operator", "operator".equals(kind)).data("appId", appId)).cookie(formToken.cookie(token))
                .build();
    }
}
