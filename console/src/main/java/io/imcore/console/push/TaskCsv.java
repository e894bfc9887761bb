package io.imcore.console.push;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Csv;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.i18n.MessageBundles;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CSV downloads of the task list (its filters, every page) and of a task's report. */
@Path("/")
@Produces(Csv.MEDIA_TYPE)
public class TaskCsv extends ServicePages {

    /** push-service's largest page. */
    private static final int PAGE = 100;
    /** A bound on one download: 100 calls of push-service's list; narrow by date for more. */
    static final int MAX_TASKS = 10_000;

    @Inject
    TaskReport taskReport;

    @GET
    @Path("tasks.csv")
    public Response tasks(@Context HttpHeaders headers, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("state") String state, @QueryParam("q") String text) {
        ConsoleSession session = guard.requireAdmin(headers);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("from", PushPages.dayStart(Pages.text(from), 0));
        query.put("to", PushPages.dayStart(Pages.text(to), 1));
        query.put("state", Pages.text(state));
        query.put("q", Pages.text(text));
        query.put("limit", Integer.toString(PAGE));
        Csv csv = new Csv(List.of("task_id", "accepted_utc", "state", "title", "body", "request_id", "target", "sent",
                "received", "failed", "rejected"));
        for (int offset = 0; offset < MAX_TASKS; offset += PAGE) {
            query.put("offset", Integer.toString(offset));
            Answer answer = backend.get(Service.PUSH, "/push/task/list" + TaskTable.queryString(query),
                    session.credentials());
            if (!answer.ok() || answer.data() == null) {
                return unavailable("Task list not available: " + answer.error());
            }
            List<Map<String, Object>> rows = backend.plainList(answer.data().get("list"));
            for (Map<String, Object> row : rows) {
                csv.row(Arrays.asList(row.get("task_id"), Csv.time(row.get("created_at")), row.get("state"),
                        row.get("title"), row.get("body"), row.get("request_id"), row.get("target"), row.get("sent"),
                        TaskTable.received(row), row.get("failed"), row.get("rejected")));
            }
            if (rows.size() < PAGE) {
                break;
            }
        }
        return csv.download("tasks.csv");
    }

    /**
     * The report in one table, a row per fact: its sections ({@code request}, {@code funnel}, {@code failure},
     * {@code timeline}) each fill their own columns.
     */
    @GET
    @Path("tasks/{id}/report.csv")
    public Response report(@Context HttpHeaders headers, @PathParam("id") String id) {
        ConsoleSession session = guard.requireAdmin(headers);
        Long taskId = PushPages.taskId(Pages.text(id));
        if (taskId == null) {
            return Response.status(400).type(MediaType.TEXT_PLAIN_TYPE + "; charset=utf-8")
                    .entity(PushPages.idError(id, MessageBundles.get(PushMessages.class))).build();
        }
        TaskReport.Loaded loaded = taskReport.load(session, taskId);
        if (loaded.task() == null) {
            return Response.status(404).type(MediaType.TEXT_PLAIN_TYPE + "; charset=utf-8").entity(loaded.error())
                    .build();
        }
        if (loaded.history() == null) {
            return unavailable("Report not available: " + loaded.historyError());
        }
        Csv csv = new Csv(List.of("task_id", "section", "field", "value", "channel", "time_utc", "target", "sent",
                "received", "failed", "rejected", "outcome", "reason", "count"));
        // the file is read by scripts and spreadsheets as well as people: its words stay English, whatever the page's
        TaskReport.sent(loaded.history(), MessageBundles.get(PushMessages.class)).forEach((field, value) ->
                csv.row(row(taskId, "request", field, value, null, null)));
        JsonNode task = loaded.task();
        for (Map<String, Object> f : TaskReport.funnel(task)) {
            csv.row(row(taskId, "funnel", null, null, f.get("channel"), null, f.get("target"), f.get("sent"),
                    Boolean.TRUE.equals(f.get("measured")) ? f.get("received") : DeliveryReceipts.NOT_MEASURED,
                    f.get("failed"), f.get("rejected")));
        }
        for (Map<String, Object> failure : backend.plainList(task.get("failures"))) {
            csv.row(row(taskId, "failure", null, null, failure.get("channel"), null, null, null, null, null, null,
                    failure.get("outcome"), failure.get("reason"), failure.get("count")));
        }
        for (Map<String, Object> point : backend.plainList(loaded.history().path("timeline").get("points"))) {
            String channel = String.valueOf(point.get("channel"));
            csv.row(row(taskId, "timeline", null, null, channel, Csv.time(point.get("at")), null, point.get("sent"),
                    DeliveryReceipts.measured(channel) ? point.get("received") : DeliveryReceipts.NOT_MEASURED,
                    point.get("failed"), point.get("rejected")));
        }
        return csv.download("task-" + taskId + "-report.csv");
    }

    /** A row of the report's 14 columns from its first cells; the rest are empty. */
    private static List<Object> row(Object... cells) {
        List<Object> row = new ArrayList<>(Arrays.asList(cells));
        while (row.size() < 14) {
            row.add(null);
        }
        return row;
    }

    private static Response unavailable(String message) {
        return Response.status(502).type(MediaType.TEXT_PLAIN_TYPE + "; charset=utf-8").entity(message).build();
    }
}
