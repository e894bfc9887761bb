package io.imcore.console.push;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The push composer (POST /push/notify, with the audience count of POST /push/audience/count, a phone preview and a
 * confirmation before a push to all), the task list and a task's report (POST /push/task/detail).
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class PushPages extends ServicePages {

    static final List<String> AUDIENCE_KINDS = List.of("all", "tag", "alias", "user_id", "push_token");
    static final List<String> MESSAGE_TYPES = List.of("text", "image", "cmd");
    static final List<String> STRATEGIES = List.of("combined", "svcpush_only", "ospush_only");
    /** docs/push-fanout.md "Task states"; the last four are final. */
    static final List<String> STATES = List.of("accepted", "scheduled", "expanding", "dispatching", "done", "expired",
            "failed", "cancelled");
    static final Set<String> FINAL_STATES = Set.of("done", "expired", "failed", "cancelled");
    private static final int PAGE_SIZE = 20;

    @Inject
    TaskTable taskTable;
    @Inject
    TaskReport taskReport;
    @Inject
    ObjectMapper json;
    @Inject
    Template composer;
    @Inject
    Template phonePreview;
    @Inject
    Template tasks;
    @Inject
    Template report;
    @Inject
    Template reportBody;
    @Inject
    Language language;

    @GET
    @Path("push/new")
    public Response composer(@Context HttpHeaders headers) {
        ConsoleSession session = guard.requireAdmin(headers);
        Map<String, String> form = new LinkedHashMap<>();
        for (String field : List.of("audience_values", "title", "body", "extras", "sequence", "show_begin",
                "request_id")) {
            form.put(field, "");
        }
        form.put("audience_kind", "user_id");
        form.put("type", "text");
        form.put("strategy", "combined");
        return Response.ok(composerPage(session, form, null)).build();
    }

    /**
     * Sends the push. A push to all is sent only on the second submit, from the confirmation's button: the first
     * shows how many devices it will reach (no inline script: the confirmation is a page of its own).
     */
    @POST
    @Path("push")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response send(@Context HttpHeaders headers, @BeanParam ComposerForm fields) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, fields.csrf);
        Map<String, String> form = fields.values();
        ObjectNode request;
        try {
            request = notifyRequest(form);
        } catch (IllegalArgumentException e) {
            return Response.status(400).entity(composerPage(session, form, e.getMessage())).build();
        }
        if (form.get("audience_kind").equals("all") && !"yes".equals(fields.confirm)) {
            Answer count = countAudience(session, request);
            if (!count.ok()) {
                return Response.status(400).entity(composerPage(session, form, language.msg().not_sent(count.error())))
                        .build();
            }
            return Response.ok(composerPage(session, form, null).data("confirmAll", AudienceSize.of(count.data())))
                    .build();
        }
        Answer answer = backend.post(Service.PUSH, "/push/notify", session.credentials(), request);
        if (!answer.ok() || answer.data() == null) {
            return Response.status(400).entity(composerPage(session, form, language.msg().not_sent(answer.error())))
                    .build();
        }
        long taskId = answer.data().path("task_id").asLong();
        session.setNotice(texts().compose_accepted(taskId));
        return Pages.redirect("/tasks/" + taskId);
    }

    /** The composer again with the audience's size per channel now (POST /push/audience/count); nothing is sent. */
    @POST
    @Path("push/count")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response count(@Context HttpHeaders headers, @BeanParam ComposerForm fields) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, fields.csrf);
        Map<String, String> form = fields.values();
        Answer count;
        try {
            count = countAudience(session, notifyRequest(form));
        } catch (IllegalArgumentException e) {
            return Response.status(400).entity(composerPage(session, form, e.getMessage())).build();
        }
        if (!count.ok()) {
            return Response.status(400)
                    .entity(composerPage(session, form, texts().compose_not_counted(count.error()))).build();
        }
        return Response.ok(composerPage(session, form, null).data("count", AudienceSize.of(count.data()))).build();
    }

    /** The phone preview alone, which htmx swaps in as the title, body or type change. */
    @POST
    @Path("push/preview")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response preview(@Context HttpHeaders headers, @BeanParam ComposerForm fields) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, fields.csrf);
        return Response.ok(phonePreview.data("form", fields.values()).data("s", session)).build();
    }

    /** The /push/notify body is also a count body: push-service reads its audience and setting only. */
    private Answer countAudience(ConsoleSession session, ObjectNode request) {
        return backend.post(Service.PUSH, "/push/audience/count", session.credentials(), request);
    }

    /** The /push/notify body of the form (api.md 4.5.2); what only the API can judge is left to it. */
    private ObjectNode notifyRequest(Map<String, String> form) {
        PushMessages msg = texts();
        ObjectNode request = json.createObjectNode();
        String kind = form.get("audience_kind");
        if (kind.equals("all")) {
            request.put("audience", "all");
        } else if (AUDIENCE_KINDS.contains(kind)) {
            ArrayNode values = request.putObject("audience").putArray(kind);
            for (String value : splitList(form.get("audience_values"))) {
                if (kind.equals("user_id")) {
                    try {
                        values.add(Long.parseLong(value));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(msg.compose_user_id_not_number(value));
                    }
                } else {
                    values.add(value);
                }
            }
        } else {
            throw new IllegalArgumentException(msg.compose_choose_kind(String.join(", ", AUDIENCE_KINDS)));
        }
        ObjectNode setting = request.putObject("setting");
        if (!form.get("request_id").isEmpty()) {
            setting.put("request_id", form.get("request_id"));
        }
        setting.put("distribution_strategy", form.get("strategy"));
        if (!form.get("sequence").isEmpty()) {
            ArrayNode order = setting.putArray("ospush_sequence");
            splitList(form.get("sequence")).forEach(order::add);
        }
        ObjectNode message = request.putObject("message");
        if (!form.get("extras").isEmpty()) {
            try {
                JsonNode extras = json.readTree(form.get("extras"));
                if (!extras.isObject()) {
                    throw new IllegalArgumentException(msg.compose_extras_not_object());
                }
                message.setAll((ObjectNode) extras);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(msg.compose_extras_not_json(e.getOriginalMessage()));
            }
        }
        message.put("type", form.get("type"));
        message.put("title", form.get("title"));
        message.put("body", form.get("body"));
        if (!form.get("show_begin").isEmpty()) {
            try {
                message.put("show_begin_time", LocalDateTime.parse(form.get("show_begin"))
                        .toEpochSecond(ZoneOffset.UTC));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(msg.compose_show_from_invalid());
            }
        }
        return request;
    }

    private static List<String> splitList(String text) {
        return Arrays.stream(text.split("[,\\n]")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private TemplateInstance composerPage(ConsoleSession session, Map<String, String> form, String error) {
        return Pages.page(composer, session).data("form", form).data("error", error)
                .data("audienceKinds", AUDIENCE_KINDS).data("messageTypes", MESSAGE_TYPES)
                .data("strategies", STRATEGIES).data("count", null).data("confirmAll", null);
    }

    @GET
    @Path("tasks")
    public Response taskList(@Context HttpHeaders headers, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("state") String state, @QueryParam("q") String text,
            @QueryParam("offset") Integer offset) {
        ConsoleSession session = guard.requireAdmin(headers);
        return Response.ok(tasksPage(session, from, to, state, text, offset).data("openError", null)).build();
    }

    private TemplateInstance tasksPage(ConsoleSession session, String from, String to, String state, String text,
            Integer offset) {
        int start = offset == null || offset < 0 ? 0 : offset;
        Map<String, String> filter = new LinkedHashMap<>();
        filter.put("from", Pages.text(from));
        filter.put("to", Pages.text(to));
        filter.put("state", Pages.text(state));
        filter.put("q", Pages.text(text));
        Map<String, String> query = new LinkedHashMap<>();
        query.put("from", dayStart(filter.get("from"), 0));
        query.put("to", dayStart(filter.get("to"), 1));
        query.put("state", filter.get("state"));
        query.put("q", filter.get("q"));
        query.put("offset", Integer.toString(start));
        query.put("limit", Integer.toString(PAGE_SIZE));
        TemplateInstance page = Pages.page(tasks, session).data("filter", filter).data("states", STATES);
        long total = taskTable.addTo(page, session, query);
        page.data("previous", start == 0 ? null : "/console/tasks" + TaskTable.queryString(withOffset(filter,
                Math.max(0, start - PAGE_SIZE))));
        page.data("next", start + PAGE_SIZE >= total ? null : "/console/tasks" + TaskTable.queryString(
                withOffset(filter, start + PAGE_SIZE)));
        page.data("csv", "/console/tasks.csv" + TaskTable.queryString(filter));
        return page;
    }

    private static Map<String, String> withOffset(Map<String, String> filter, int offset) {
        Map<String, String> query = new LinkedHashMap<>(filter);
        query.put("offset", Integer.toString(offset));
        return query;
    }

    /** A date of the filter as epoch ms at 00:00 UTC, plus days (the "to" day is included whole). */
    static String dayStart(String date, int plusDays) {
        if (date.isEmpty()) {
            return "";
        }
        try {
            return Long.toString(LocalDate.parse(date).plusDays(plusDays).atStartOfDay(ZoneOffset.UTC).toInstant()
                    .toEpochMilli());
        } catch (DateTimeParseException e) {
            return "";
        }
    }

    /** "Open task id": a task id to its report; anything else back to the list, saying why. */
    @GET
    @Path("tasks/open")
    public Response open(@Context HttpHeaders headers, @QueryParam("task_id") String taskId) {
        ConsoleSession session = guard.requireAdmin(headers);
        String id = Pages.text(taskId);
        Long parsed = taskId(id);
        if (parsed == null) {
            return Response.status(400).entity(tasksPage(session, null, null, null, null, 0)
                    .data("openError", idError(id, texts()))).build();
        }
        return Pages.redirect("/tasks/" + parsed);
    }

    /** A task id as typed: a positive number, else null. */
    static Long taskId(String id) {
        if (!id.matches("\\d{1,19}")) {
            return null;
        }
        try {
            long value = Long.parseLong(id);
            return value > 0 ? value : null;
        } catch (NumberFormatException e) {
            return null; // beyond int64
        }
    }

    static String idError(String id, PushMessages msg) {
        return msg.tasks_id_not_number(id);
    }

    /** The report; an id that is not a number or names no task of the app says so (HTTP 400 or 404). */
    @GET
    @Path("tasks/{id}")
    public Response report(@Context HttpHeaders headers, @PathParam("id") String id) {
        ConsoleSession session = guard.requireAdmin(headers);
        Long taskId = taskId(id);
        TemplateInstance page = Pages.page(report, session).data("taskId", taskId == null ? id : taskId);
        if (taskId == null) {
            return Response.status(400).entity(page.data("error", idError(id, texts())).data("final", true))
                    .build();
        }
        return Response.status(taskReport.addTo(page, session, taskId) ? 200 : 404).entity(page).build();
    }

    /** The report alone, which the page's htmx swaps in every 2 s until the task is final. */
    @GET
    @Path("tasks/{id}/report")
    public Response reportFragment(@Context HttpHeaders headers, @PathParam("id") String id) {
        ConsoleSession session = guard.requireAdmin(headers);
        Long taskId = taskId(id);
        TemplateInstance fragment = reportBody.data("taskId", taskId == null ? id : taskId);
        if (taskId == null) {
            return Response.status(400)
                    .entity(fragment.data("error", idError(id, texts())).data("final", true)).build();
        }
        taskReport.addTo(fragment, session, taskId);
        return Response.ok(fragment).build();
    }

    /** The push pages' texts in the request's language. */
    private PushMessages texts() {
        return language.messages(PushMessages.class);
    }
}
