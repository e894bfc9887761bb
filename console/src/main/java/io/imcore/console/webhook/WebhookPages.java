package io.imcore.console.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.FormErrors;
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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The app's webhook (docs/webhooks.md) through message-service's admin API: the endpoint's settings (secret masked;
 * a save answers a new secret, shown once and kept nowhere), the banner of a disabled endpoint, the delivery log of
 * the last 7 days with "send again", and the word filter.
 */
@Path("/webhooks")
@Produces(MediaType.TEXT_HTML)
public class WebhookPages extends ServicePages {

    /** Deliveries per page of the log (the API allows 1..100). */
    static final int LOG_PAGE = 20;
    static final List<String> FIELDS = List.of("url", "events", "before_send", "hook_timeout_ms", "hook_fail_open",
            "batch_size");

    @Inject
    Template webhooks;
    @Inject
    Language language;

    @GET
    public Response page(@Context HttpHeaders headers, @QueryParam("before_id") String beforeId) {
        ConsoleSession session = guard.requireAdmin(headers);
        long before = beforeId != null && beforeId.matches("\\d{1,18}") ? Long.parseLong(beforeId) : 0;
        return Response.ok(render(session, null, FormErrors.none(FIELDS), before, null, null)).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response save(@Context HttpHeaders headers, @FormParam("csrf") String csrf, @FormParam("url") String url,
            @FormParam("events") String events, @FormParam("before_send") String beforeSend,
            @FormParam("hook_timeout_ms") String hookTimeoutMs, @FormParam("hook_fail_open") String hookFailOpen,
            @FormParam("batch_size") String batchSize) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("url", Pages.text(url));
        form.put("events", Pages.text(events));
        form.put("before_send", beforeSend != null);
        form.put("hook_timeout_ms", Pages.text(hookTimeoutMs));
        form.put("hook_fail_open", hookFailOpen != null);
        form.put("batch_size", Pages.text(batchSize));
        Map<String, Object> body = new LinkedHashMap<>(form);
        body.put("events", Arrays.stream(Pages.text(events).split("[,\\s]+")).filter(e -> !e.isEmpty()).toList());
        body.put("hook_timeout_ms", number(Pages.text(hookTimeoutMs)));
        body.put("batch_size", number(Pages.text(batchSize)));
        Answer answer = backend.post(Service.MESSAGE, "/app/webhook", session.credentials(), body);
        Map<String, String> errors = FormErrors.none(FIELDS);
        if (answer.ok() && answer.data() != null) {
            return Response.ok(render(session, null, errors, 0, answer.data().path("secret").asText(), null)).build();
        }
        String key = FormErrors.keyOf(answer, errors);
        errors.put(key, key.equals(FormErrors.GENERAL) ? messages().not_saved(answer.error()) : answer.error());
        return Response.status(400).entity(render(session, form, errors, 0, null, null)).build();
    }

    @POST
    @Path("resend")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response resend(@Context HttpHeaders headers, @FormParam("csrf") String csrf, @FormParam("id") String id) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        String delivery = Pages.text(id);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", number(delivery));
        Answer answer = backend.post(Service.MESSAGE, "/app/webhook/deliveries/resend", session.credentials(), body);
        session.setNotice(answer.ok() ? messages().resent(delivery) : messages().not_resent(delivery, answer.error()));
        return Pages.redirect("/webhooks");
    }

    /** Replaces the word list with the textarea's lines (blank lines dropped; the API trims and drops repeats). */
    @POST
    @Path("words")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    public Response saveWords(@Context HttpHeaders headers, @FormParam("csrf") String csrf,
            @FormParam("action") String action, @FormParam("words") String words) {
        ConsoleSession session = guard.requireAdmin(headers);
        guard.checkCsrf(session, csrf);
        List<String> list = words == null ? List.of()
                : words.lines().map(String::strip).filter(word -> !word.isEmpty()).toList();
        Answer answer = backend.post(Service.MESSAGE, "/app/word_filter", session.credentials(),
                Map.of("action", Pages.text(action), "words", list));
        if (answer.ok() && answer.data() != null) {
            session.setNotice(messages().words_saved(answer.data().path("words").size()));
            return Pages.redirect("/webhooks");
        }
        Map<String, String> wordForm = Map.of("action", Pages.text(action), "words", String.join("\n", list),
                "error", answer.error());
        return Response.status(400).entity(render(session, null, FormErrors.none(FIELDS), 0, null, wordForm)).build();
    }

    /**
     * The page: {@code form} the settings as typed (after a refusal) or null for the saved ones; {@code secret} the
     * one a save just issued; {@code wordForm} the list as typed with its refusal, or null for the saved list.
     */
    private TemplateInstance render(ConsoleSession session, Map<String, Object> form, Map<String, String> errors,
            long beforeId, String secret, Map<String, String> wordForm) {
        WebhookMessages msg = messages();
        Answer settings = backend.get(Service.MESSAGE, "/app/webhook", session.credentials());
        JsonNode saved = settings.ok() ? settings.data() : null;
        TemplateInstance page = Pages.page(webhooks, session)
                .data("settingsError", settings.ok() ? null : msg.settings_not_read(settings.error()))
                .data("configured", saved != null).data("form", form == null ? savedForm(saved) : form)
                .data("maskedSecret", saved == null ? "" : saved.path("secret").asText(""))
                .data("disabled", disabledBanner(saved, msg)).data("errors", errors).data("secret", secret);
        addLog(page, session, beforeId, msg);
        addWords(page, session, wordForm, msg);
        return page;
    }

    private void addLog(TemplateInstance page, ConsoleSession session, long beforeId, WebhookMessages msg) {
        Answer log = backend.get(Service.MESSAGE, "/app/webhook/deliveries?limit=" + LOG_PAGE
                + (beforeId > 0 ? "&before_id=" + beforeId : ""), session.credentials());
        List<Map<String, String>> rows = new ArrayList<>();
        if (log.ok() && log.data() != null) {
            for (JsonNode entry : log.data()) {
                Map<String, String> row = new LinkedHashMap<>();
                row.put("id", entry.path("id").asText());
                row.put("time", time(entry.path("created_at")));
                row.put("type", entry.path("type").asText());
                row.put("eventId", entry.path("event_id").asText());
                row.put("state", "delivered".equals(entry.path("state").asText()) ? msg.state_delivered()
                        : msg.state_pending());
                row.put("status", entry.path("last_status").asText("-"));
                row.put("latency", entry.path("last_latency_ms").isNumber()
                        ? entry.path("last_latency_ms").asText() + " ms" : "-");
                row.put("attempts", entry.path("attempts").asText());
                row.put("answer", entry.path("last_answer").asText(""));
                rows.add(row);
            }
        }
        page.data("logError", log.ok() ? null : msg.log_not_read(log.error())).data("deliveries", rows)
                .data("olderThan", rows.size() == LOG_PAGE ? rows.getLast().get("id") : null)
                .data("paged", beforeId > 0);
    }

    private void addWords(TemplateInstance page, ConsoleSession session, Map<String, String> wordForm,
            WebhookMessages msg) {
        if (wordForm != null) {
            page.data("words", wordForm);
            return;
        }
        Answer filter = backend.get(Service.MESSAGE, "/app/word_filter", session.credentials());
        JsonNode saved = filter.ok() ? filter.data() : null;
        List<String> words = new ArrayList<>();
        if (saved != null) {
            saved.path("words").forEach(word -> words.add(word.asText()));
        }
        page.data("words", Map.of("action", saved == null ? "refuse" : saved.path("action").asText("refuse"),
                "words", String.join("\n", words), "count", saved == null ? "" : msg.words_count(words.size()),
                "error", filter.ok() ? "" : msg.words_not_read(filter.error())));
    }

    /** The banner's sentence when deliveries to the endpoint stopped (GET /app/webhook's disabled), else null. */
    static String disabledBanner(JsonNode saved, WebhookMessages msg) {
        if (saved == null || !saved.path("disabled").asBoolean(false)) {
            return null;
        }
        return msg.disabled(time(saved.path("disabled_at")), saved.path("disabled_reason").asText("-"));
    }

    private WebhookMessages messages() {
        return language.messages(WebhookMessages.class);
    }

    private static Map<String, Object> savedForm(JsonNode saved) {
        Map<String, Object> form = new LinkedHashMap<>();
        if (saved == null) { // the API's defaults (docs/webhooks.md "Configuration")
            form.putAll(Map.of("url", "", "events", "*", "before_send", false, "hook_timeout_ms", "500",
                    "hook_fail_open", true, "batch_size", "1"));
            return form;
        }
        List<String> events = new ArrayList<>();
        saved.path("events").forEach(event -> events.add(event.asText()));
        form.put("url", saved.path("url").asText(""));
        form.put("events", String.join(", ", events));
        form.put("before_send", saved.path("before_send").asBoolean(false));
        form.put("hook_timeout_ms", saved.path("hook_timeout_ms").asText("500"));
        form.put("hook_fail_open", saved.path("hook_fail_open").asBoolean(true));
        form.put("batch_size", saved.path("batch_size").asText("1"));
        return form;
    }

    /** message-service's times: ISO 8601 text (an Instant) or epoch milliseconds; as UTC text, "-" when absent. */
    public static String time(JsonNode value) {
        if (value.isNumber()) {
            return Pages.time(value.asLong());
        }
        try {
            return value.isTextual() ? Pages.time(Instant.parse(value.asText()).toEpochMilli()) : "-";
        } catch (DateTimeParseException e) {
            return value.asText();
        }
    }

    /**
     * A number when the text is one; null (the API's default) when empty; otherwise the text itself, so the API names
     * the field in its refusal.
     */
    private static Object number(String text) {
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return text;
        }
    }
}
