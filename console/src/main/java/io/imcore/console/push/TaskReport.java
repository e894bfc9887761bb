package io.imcore.console.push;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Pages;
import io.quarkus.qute.TemplateInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's report from {@code POST /push/task/detail} (api.md 2.8 and docs/push-fanout.md): a funnel per channel that
 * had targets, failures by reason, progress and timing.
 */
@ApplicationScoped
public class TaskReport {

    /** api.md 2.8's channels, in its order. */
    static final List<String> CHANNELS = List.of("ios", "cloud", "vendor_a", "vendor_b", "vendor_c", "vendor_d",
            "vendor_e", "svcpush");
    /**
     * Channels whose {@code received} is never counted: APNs and FCM have no delivery callback (docs/channels/ios.md
     * and cloud.md, docs/push-worker.md "received"). The others count provider receipts or, for svcpush, the
     * device's notification_ack.
     */
    static final Set<String> NO_RECEIPTS = Set.of("ios", "cloud");

    @Inject
    BackendClient backend;

    public void addTo(TemplateInstance page, ConsoleSession session, long taskId) {
        Answer answer = backend.post(Service.PUSH, "/push/task/detail", session.credentials(),
                Map.of("list", List.of(taskId)));
        JsonNode task = answer.ok() && answer.data() != null && answer.data().size() > 0 ? answer.data().get(0) : null;
        if (task == null) {
            page.data("error", answer.ok() ? "No task " + taskId + " in this app." : answer.error())
                    .data("final", true);
            return;
        }
        String state = task.path("state").asText("unknown");
        JsonNode progress = task.path("progress");
        page.data("error", null).data("state", state).data("reason", task.path("reason").asText(""))
                .data("final", PushPages.FINAL_STATES.contains(state))
                .data("createdAt", Pages.time(number(task, "created_at")))
                .data("finishedAt", Pages.time(number(task, "finished_at")))
                .data("batchesDone", progress.path("batches_done").asLong())
                .data("batchesTotal", progress.path("batches_total").asLong())
                .data("funnel", funnel(task))
                .data("failuresKnown", task.has("failures"))
                .data("failures", backend.plainList(task.get("failures")));
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
            row.put("measured", !NO_RECEIPTS.contains(channel));
            row.put("failed", counter(task, channel + "_failed"));
            row.put("rejected", counter(task, channel + "_rejected"));
            row.put("sentPercent", Math.min(100, sent * 100 / target));
            row.put("receivedPercent", Math.min(100, received * 100 / target));
            rows.add(row);
        }
        return rows;
    }

    /** A counter push-service may not report yet shows as "-", not as a false 0. */
    private static Object counter(JsonNode task, String field) {
        return task.has(field) ? task.get(field).asLong() : "-";
    }

    private static Object number(JsonNode task, String field) {
        JsonNode value = task.get(field);
        return value != null && value.isNumber() ? value.longValue() : null;
    }
}
