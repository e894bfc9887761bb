package io.imcore.console.overview;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.imcore.console.push.TaskTable;
import io.imcore.console.webhook.WebhookPages;
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
import java.util.Locale;
import java.util.Map;

/**
 * The app admin's overview (push on/off, last pushes, the files' storage use, a banner when the webhook endpoint is
 * disabled) and the push switch.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class OverviewPages extends ServicePages {

    @Inject
    TaskTable taskTable;
    @Inject
    Template overview;
    @Inject
    Language language;

    @GET
    public Response overview(@Context HttpHeaders headers) {
        ConsoleSession session = guard.require(headers);
        if (session.isOperator()) {
            return Pages.redirect("/apps");
        }
        Answer enabled = backend.get(Service.PUSH, "/push/enable", session.credentials());
        String pushState = enabled.ok() && enabled.data() != null && enabled.data().has("enabled")
                ? (enabled.data().get("enabled").asBoolean() ? "on" : "off")
                : language.msg().overview_unknown(enabled.error());
        TemplateInstance page = Pages.page(overview, session).data("pushState", pushState)
                .data("storageUse", storageUse(session)).data("webhookDisabledAt", webhookDisabledAt(session));
        taskTable.addTo(page, session, Map.of("limit", "5"));
        return Response.ok(page).build();
    }

    /** The app's completed files and their size (message-service GET /file/usage, docs/files.md). */
    private String storageUse(ConsoleSession session) {
        Answer usage = backend.get(Service.MESSAGE, "/file/usage", session.credentials());
        if (!usage.ok() || usage.data() == null || !usage.data().has("bytes")) {
            return language.msg().overview_unknown(usage.error());
        }
        double mib = usage.data().get("bytes").asLong() / (1024.0 * 1024.0);
        return language.msg().overview_storage(usage.data().path("files").asLong(),
                String.format(Locale.ROOT, "%.1f MiB", mib));
    }

    /** When deliveries to the app's webhook endpoint stopped (docs/webhooks.md "Order and retries"), else null. */
    private String webhookDisabledAt(ConsoleSession session) {
        Answer webhook = backend.get(Service.MESSAGE, "/app/webhook", session.credentials());
        JsonNode data = webhook.ok() ? webhook.data() : null;
        return data != null && data.path("disabled").asBoolean(false) ? WebhookPages.time(data.path("disabled_at"))
                : null;
    }

    @POST
    @Path("push-enabled")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response switchPush(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("value") String value) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        boolean on = "true".equals(value);
        Answer answer = backend.post(Service.PUSH, "/push/enable?value=" + on, session.credentials(), null);
        ConsoleMessages msg = language.msg();
        session.setNotice(answer.ok() ? (on ? msg.overview_switched_on() : msg.overview_switched_off())
                : msg.overview_not_switched(answer.error()));
        return Pages.redirect("/");
    }
}
