package io.imcore.console.app;

import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's apps (docs/api-decisions.md "Apps"): the list (auth-service {@code GET /app/list}), create and
 * rotate an admin token after a confirmation. A new admin token is shown once, in the answer to the form, and kept
 * nowhere.
 */
@Path("/apps")
@Produces(MediaType.TEXT_HTML)
public class OperatorAppPages extends ServicePages {

    @Inject
    Template apps;
    @Inject
    Language language;

    @GET
    public Response list(@Context HttpHeaders headers) {
        return Response.ok(page(guard.requireOperator(headers), null, false)).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response create(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("name") String name) {
        ConsoleSession session = guard.requireOperator(headers);
        guard.checkCsrf(session, csrf);
        if (Pages.text(name).isEmpty()) {
            return Response.status(400).entity(page(session, null, false)
                    .data("nameError", language.msg().apps_name_required())).build();
        }
        Answer answer = backend.post(Service.AUTH, "/app/create", session.credentials(),
                Map.of("name", Pages.text(name)));
        if (answer.code() == 10002 && String.valueOf(answer.message()).startsWith("name:")) {
            return Response.status(400).entity(page(session, null, false).data("nameError", answer.error())
                    .data("name", Pages.text(name))).build();
        }
        return Response.ok(page(session, answer, true)).build();
    }

    @POST
    @Path("admin-token")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response rotate(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("app_id") String appId, @FormParam("confirm") String confirm) {
        ConsoleSession session = guard.requireOperator(headers);
        guard.checkCsrf(session, csrf);
        // the old token stops working at once: the first submit only asks (a server-side step: the policy forbids
        // the inline script a confirm() would need)
        if (!"yes".equals(confirm)) {
            return Response.ok(page(session, null, false).data("confirmRotate", Pages.text(appId))).build();
        }
        Map<String, String> credentials = new HashMap<>(session.credentials());
        credentials.put("app_id", Pages.text(appId));
        Answer answer = backend.post(Service.AUTH, "/app/admin_token", credentials, null);
        return Response.ok(page(session, answer, false)).build();
    }

    /** {@code created}: the result is a new app's, else a rotation's. */
    private TemplateInstance page(ConsoleSession session, Answer result, boolean created) {
        Answer list = backend.get(Service.AUTH, "/app/list", session.credentials());
        List<Map<String, Object>> rows = backend.plainList(list.ok() && list.data() != null
                ? list.data().get("list") : null);
        rows.forEach(row -> row.put("created_at_text", Pages.time(row.get("created_at"))));
        TemplateInstance page = Pages.page(apps, session).data("apps", rows)
                .data("listError", list.ok() ? null : list.error());
        if (result != null && result.ok() && result.data() != null) {
            page.data("issued", Map.of("app_id", result.data().path("app_id").asText(), "admin_token",
                    result.data().path("admin_token").asText(), "created", created));
        } else if (result != null) {
            page.data("error", result.error());
        }
        return page;
    }
}
