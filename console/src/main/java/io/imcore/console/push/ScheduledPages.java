package io.imcore.console.push;

import com.fasterxml.jackson.databind.JsonNode;
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
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The app's scheduled pushes (GET /push/task/scheduled), each with a Cancel button (POST /push/task/cancel). */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class ScheduledPages extends ServicePages {

    /** push-service's largest page: an app schedules a handful of pushes, not hundreds. */
    static final int LIMIT = 100;

    @Inject
    Template scheduled;
    @Inject
    Language language;

    @GET
    @Path("scheduled")
    public Response list(@Context HttpHeaders headers) {
        ConsoleSession session = guard.requireAdmin(headers);
        TemplateInstance page = Pages.page(scheduled, session);
        Answer answer = backend.get(Service.PUSH, "/push/task/scheduled?limit=" + LIMIT, session.credentials());
        if (!answer.ok() || answer.data() == null) {
            return Response.ok(page.data("error", answer.error()).data("tasks", List.of()).data("total", 0)).build();
        }
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (JsonNode task : answer.data().path("list")) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", task.path("task_id").asLong());
            row.put("begin", Pages.time(task.path("show_begin_time").asLong() * 1000));
            row.put("created", Pages.time(task.path("created_at").asLong()));
            row.put("title", task.path("title").asText());
            row.put("body", task.path("body").asText());
            row.put("audience", audience(task.path("audience")));
            row.put("strategy", task.path("strategy").asText());
            tasks.add(row);
        }
        return Response.ok(page.data("error", null).data("tasks", tasks)
                .data("total", answer.data().path("total").asLong())).build();
    }

    @POST
    @Path("scheduled/{id}/cancel")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response cancel(@Context HttpHeaders headers, @PathParam("id") long taskId,
            @FormParam("csrf") String csrf) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Answer answer = backend.post(Service.PUSH, "/push/task/cancel", session.credentials(),
                Map.of("task_id", taskId));
        session.setNotice(answer.ok() ? texts().scheduled_cancelled(taskId)
                : texts().scheduled_not_cancelled(taskId, answer.error()));
        return Pages.redirect("/scheduled");
    }

    /** "all", or the list's kind and its values as the caller gave them ("tag: vip, new"). */
    private static String audience(JsonNode audience) {
        if (audience.isTextual()) {
            return audience.asText();
        }
        if (!audience.fields().hasNext()) {
            return "";
        }
        Map.Entry<String, JsonNode> list = audience.fields().next();
        List<String> values = new ArrayList<>();
        list.getValue().forEach(value -> values.add(value.asText()));
        return list.getKey() + ": " + String.join(", ", values);
    }

    /** The push pages' texts in the request's language. */
    private PushMessages texts() {
        return language.messages(PushMessages.class);
    }
}
