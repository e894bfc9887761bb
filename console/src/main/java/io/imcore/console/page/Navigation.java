package io.imcore.console.page;

import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * Which navigation entry the request's page belongs to, for the layout's {@code aria-current="page"}
 * ({@code {inject:navigation.at('/tasks')}} in base.html): a page is under the entry of its path's first segment, so a
 * task report is under Tasks and the answer to a form under the page that sent it.
 */
@Named
@RequestScoped
public class Navigation {

    @Inject
    HttpServerRequest request;

    /** Whether the page is the entry's: "/" is the overview only, another entry covers its path and the paths below. */
    public boolean at(String entry) {
        String path = request.path().substring(SessionGuard.PATH.length());
        if (entry.equals("/")) {
            return path.isEmpty() || path.equals("/");
        }
        return path.equals(entry) || path.startsWith(entry + "/");
    }
}
