package io.imcore.console.page;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.MultiMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The security headers of every console response (OWASP ASVS V14, docs/console.md "Security headers"), set once here
 * as a Vert.x filter, so pages, htmx fragments, redirects, refusals and the static files all get them.
 * <ul>
 * <li>The policy allows scripts and styles from the console's own origin only (htmx, uPlot, charts.js and copy.js
 * are served from the jar): no inline script, no inline style, no eval; the templates carry neither (a test reads
 * them). The console is never framed.
 * <li>A response that does not say how to cache itself is not stored: every page and fragment is per session
 * (the Apps page shows a new admin token). The static files set their own caching and keep it.
 * </ul>
 */
@ApplicationScoped
public class SecurityHeaders {

    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
    /** Runs before the other filters (higher runs first): a refusal made by one of them has the headers too. */
    private static final int PRIORITY = 1_000;

    void register(@Observes Filters filters) {
        filters.register(context -> {
            MultiMap headers = context.response().headers();
            headers.set("Content-Security-Policy", POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            // same-origin keeps the Origin header of the console's own form posts; other sites learn nothing
            headers.set("Referrer-Policy", "same-origin");
            context.addHeadersEndHandler(end -> {
                if (!headers.contains("Cache-Control")) {
                    headers.set("Cache-Control", "no-store");
                }
            });
            context.next();
        }, PRIORITY);
    }
}
