package io.imcore.console.push;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's report from {@code POST /push/task/detail} (api.md 2.8 and docs/push-fanout.md: a funnel per channel that
 * had targets, failures by reason, progress and timing) and {@code GET /push/task/history} (what was sent, by whom,
 * and the deliveries over time).
 */
@ApplicationScoped
public class TaskReport {

    /** api.md 2.8's channels, in its order. */
    static final List<String> CHANNELS = List.of("ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d",
            "vendor_e", "svcpush");
    /** At most this many audience values are shown; the rest are counted. */
    private static final int AUDIENCE_SHOWN = 20;

    @Inject
    BackendClient backend;
    @Inject
    ObjectMapper json;
    @Inject
    Language language;

    /** The two answers; {@code task} is null with {@code error} when the task cannot be shown. */
    record Loaded(JsonNode task, JsonNode history, String historyError, String error) {}

    Loaded load(ConsoleSession session, long taskId) {
        Answer answer = backend.post(Service.PUSH, "/push/task/detail", session.credentials(),
                Map.of("list", List.of(taskId)));
        JsonNode task = answer.ok() && answer.data() != null && answer.data().size() > 0 ? answer.data().get(0) : null;
        if (task == null) {
            return new Loaded(null, null, null, answer.ok() ? texts().report_no_task(taskId) : answer.error());
        }
        Answer history = backend.get(Service.PUSH, "/push/task/history?task_id=" + taskId, session.credentials());
        return new Loaded(task, history.ok() ? history.data() : null, history.ok() ? null : history.error(), null);
    }

    /** Puts the report on the page; returns false when there is no such task. */
    public boolean addTo(TemplateInstance page, ConsoleSession session, long taskId) {
        Loaded loaded = load(session, taskId);
        JsonNode task = loaded.task();
        if (task == null) {
            page.data("error", loaded.error()).data("final", true);
            return false;
        }
        String state = task.path("state").asText("unknown");
        JsonNode progress = task.path("progress");
        JsonNode history = loaded.history();
        PushMessages msg = texts();
        page.data("error", null).data("state", state).data("reason", task.path("reason").asText(""))
                .data("final", PushPages.FINAL_STATES.contains(state))
                .data("createdAt", Pages.time(number(task, "created_at")))
                .data("finishedAt", Pages.time(number(task, "finished_at")))
                .data("batchesDone", progress.path("batches_done").asLong())
                .data("batchesTotal", progress.path("batches_total").asLong())
                .data("funnel", funnel(task))
                .data("noFunnel", noFunnel(state, history, msg))
                .data("failuresKnown", task.has("failures"))
                .data("failures", backend.plainList(task.get("failures")))
                .data("historyError", loaded.historyError())
                .data("what", history == null ? null : sent(history, msg))
                .data("chart", history == null ? "" : chart(history.path("timeline")))
                .data("chartStep", history == null ? 0 : history.path("timeline").path("bucket_seconds").asLong());
        return true;
    }

    static List<Map<String, Object>> funnel(JsonNode task) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String channel : CHANNELS) {
            long target = task.path(channel + "_target").asLong();
            if (target == 0) {
                continue;
            }
            long sent = task.path(channel + "_sent").asLong();
            long received = task.path(channel + "_received").asLong();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("channel", channel);
            row.put("target", target);
            row.put("sent", sent);
            row.put("received", received);
            row.put("measured", DeliveryReceipts.measured(channel));
            row.put("failed", counter(task, channel + "_failed"));
            row.put("rejected", counter(task, channel + "_rejected"));
            row.put("sentPercent", Math.min(100, sent * 100 / target));
            row.put("receivedPercent", Math.min(100, received * 100 / target));
            rows.add(row);
        }
        return rows;
    }

    /** What the funnel says while no channel has a target: the truth of the state, not "no device" too early. */
    static String noFunnel(String state, JsonNode history, PushMessages msg) {
        return switch (state) {
            case "scheduled" -> {
                JsonNode begin = history == null ? null
                        : history.path("request").path("message").get("show_begin_time");
                yield begin != null && begin.isNumber() ? msg.report_scheduled_for(Pages.time(begin.longValue() * 1000))
                        : msg.report_scheduled();
            }
            case "accepted" -> msg.report_accepted_state();
            case "expanding" -> msg.report_expanding();
            case "dispatching" -> msg.report_dispatching();
            default -> msg.report_no_target();
        };
    }

    /** What was sent, as the report's "What was sent" lists it. */
    static Map<String, Object> sent(JsonNode history, PushMessages msg) {
        JsonNode request = history.path("request");
        JsonNode message = request.path("message");
        JsonNode setting = request.path("setting");
        Map<String, Object> sent = new LinkedHashMap<>();
        sent.put("title", message.path("title").asText(""));
        sent.put("body", message.path("body").asText(""));
        sent.put("type", message.path("type").asText(""));
        sent.put("audience", audience(request.path("audience"), msg));
        sent.put("strategy", setting.path("distribution_strategy").asText(""));
        List<String> sequence = new ArrayList<>();
        setting.path("ospush_sequence").forEach(channel -> sequence.add(channel.asText()));
        sent.put("ospush_sequence", String.join(", ", sequence));
        sent.put("request_id", setting.path("request_id").asText(""));
        sent.put("show_begin_utc", seconds(message.get("show_begin_time")));
        sent.put("show_end_utc", seconds(message.get("show_end_time")));
        sent.put("sent_by", sender(history, msg));
        sent.put("accepted_utc", Pages.time(number(history, "created_at")));
        return sent;
    }

    static String audience(JsonNode audience, PushMessages msg) {
        if (audience.isTextual()) {
            return "all".equals(audience.asText()) ? msg.report_all_devices() : audience.asText();
        }
        if (!audience.isObject() || audience.isEmpty()) {
            return "-";
        }
        String kind = audience.fieldNames().next();
        JsonNode values = audience.get(kind);
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < Math.min(values.size(), AUDIENCE_SHOWN); i++) {
            shown.add(values.get(i).asText());
        }
        String more = values.size() > AUDIENCE_SHOWN ? msg.report_more(values.size() - AUDIENCE_SHOWN) : "";
        return kind + ": " + String.join(", ", shown) + more;
    }

    /** Only an admin token can push; the console pushes with it too and says so (push-service's sent_via). */
    static String sender(JsonNode history, PushMessages msg) {
        String via = history.path("sent_via").asText("");
        String token = history.path("admin_token_version").isNumber()
                ? msg.report_token_version(history.get("admin_token_version").asInt()) : "";
        return switch (via) {
            case "console" -> msg.report_via_console() + token;
            case "api" -> msg.report_via_api() + token;
            default -> msg.report_sender_unknown();
        };
    }

    private String chart(JsonNode timeline) {
        Map<String, Object> chart = DeliveryTimeline.of(timeline.path("bucket_seconds").asLong(),
                backend.plainList(timeline.get("points")));
        try {
            return chart == null ? "" : json.writeValueAsString(chart);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("chart data must serialize", e);
        }
    }

    /** A counter push-service may not report yet shows as "-", not as a false 0. */
    private static Object counter(JsonNode task, String field) {
        return task.has(field) ? task.get(field).asLong() : "-";
    }

    private static Object number(JsonNode task, String field) {
        JsonNode value = task.get(field);
        return value != null && value.isNumber() ? value.longValue() : null;
    }

    private static String seconds(JsonNode epochSeconds) {
        return epochSeconds != null && epochSeconds.isNumber() ? Pages.time(epochSeconds.longValue() * 1000) : "-";
    }

    /** The push pages' texts in the request's language. */
    private PushMessages texts() {
        return language.messages(PushMessages.class);
    }
}
