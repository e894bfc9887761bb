package io.imcore.console.page;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The header's English / 中文 links: sets the {@code console_lang} cookie for the browser session and returns to the
 * page. A link, not a form, so it needs no script and no CSRF token (it changes only the browser's own preference);
 * the way back is a console path only, never another site.
 */
@Path("/language")
public class LanguageSwitch {

    @ConfigProperty(name = "im.console.session.secure-cookie")
    boolean secureCookie;

    @GET
    public Response choose(@QueryParam("lang") String lang, @QueryParam("back") String back) {
        Locale locale = Language.supported(lang);
        Response.ResponseBuilder answer = Response.status(Response.Status.SEE_OTHER).header("Location", safeBack(back));
        if (locale != null) {
            answer.cookie(new NewCookie.Builder(Language.COOKIE).value(locale.toLanguageTag()).path(SessionGuard.PATH)
                    .secure(secureCookie).sameSite(NewCookie.SameSite.STRICT).build());
        }
        return answer.build();
    }

    /** {@code back} when it is a path of the console (with its query), else the console's start. */
    static String safeBack(String back) {
        String start = SessionGuard.PATH + "/";
        if (back == null || !(back.equals(SessionGuard.PATH) || back.startsWith(SessionGuard.PATH + "/")
                || back.startsWith(SessionGuard.PATH + "?"))) {
            return start;
        }
        try {
            URI uri = new URI(back);
            // no scheme, no host, no backslash (which browsers read as a slash): a path of this origin only
            return uri.getScheme() == null && uri.getRawAuthority() == null && back.indexOf('\\') < 0 ? back : start;
        } catch (URISyntaxException e) {
            return start;
        }
    }
}
