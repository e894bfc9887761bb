package io.imcore.console.page;

import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** What every page shares: the session and its notice in the layout, redirects, times as UTC text. */
public final class Pages {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Pages() {
    }

    public static TemplateInstance page(Template template, ConsoleSession session) {
        return template.instance().data("s", session).data("notice", session.takeNotice());
    }

    public static Response redirect(String path) {
        return redirectTo(path).build();
    }

    /**
     * A 303 to a console path ("/tasks") as a relative Location ("/console/tasks"): behind the gateway an absolute
     * one would be built from X-Forwarded-Proto with the scheme's default port, losing the gateway's port.
     */
    public static Response.ResponseBuilder redirectTo(String path) {
        return Response.status(Response.Status.SEE_OTHER).header("Location", SessionGuard.PATH + path);
    }

    /** Epoch milliseconds as UTC text; "-" when absent. */
    public static String time(Object epochMillis) {
        return epochMillis instanceof Number n ? TIME.format(Instant.ofEpochMilli(n.longValue())) : "-";
    }

    public static String text(String value) {
        return value == null ? "" : value.strip();
    }
}
