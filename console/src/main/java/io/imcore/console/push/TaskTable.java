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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** push-service's task list (GET /push/task/list) as the rows of the task table, shared by two pages. */
@ApplicationScoped
public class TaskTable {

    @Inject
    BackendClient backend;

    /** Puts {@code tasks}, {@code tasksError} and {@code total} on the page; returns the total. */
    public long addTo(TemplateInstance page, ConsoleSession session, Map<String, String> query) {
        Answer answer = backend.get(Service.PUSH, "/push/task/list" + queryString(query), session.credentials());
        JsonNode list = answer.ok() && answer.data() != null ? answer.data().get("list") : null;
        List<Map<String, Object>> rows = backend.plainList(list);
        rows.forEach(row -> {
            row.put("created_at_text", Pages.time(row.get("created_at")));
            row.put("received_measured", receivedMeasured(row));
        });
        long total = answer.ok() && answer.data() != null ? answer.data().path("total").asLong() : 0;
        page.data("tasks", rows).data("tasksError", answer.ok() ? null : answer.error()).data("total", total);
        return total;
    }

    /**
     * A task's received total: over the channels that measure deliveries only (push-service's measured_target is
     * their target), "not measured" when every targeted channel is one without receipts (ios, cloud).
     */
    static Object received(Map<String, Object> row) {
        return receivedMeasured(row) ? row.get("received") : DeliveryReceipts.NOT_MEASURED;
    }

    private static boolean receivedMeasured(Map<String, Object> row) {
        boolean targeted = row.get("target") instanceof Number n && n.longValue() > 0;
        boolean measured = row.get("measured_target") instanceof Number n && n.longValue() > 0;
        return !targeted || measured;
    }

    static String queryString(Map<String, String> query) {
        String joined = query.entrySet().stream().filter(e -> e.getValue() != null && !e.getValue().isEmpty())
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return joined.isEmpty() ? "" : "?" + joined;
    }
}
