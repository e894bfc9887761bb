package io.imcore.console.trend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.Language;
import io.imcore.console.page.ServicePages;
import io.imcore.console.push.DeliveryReceipts;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Csv;
import io.imcore.console.page.Pages;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Trends: daily sent and failed per channel (GET /push/stats/daily) as a uPlot chart and as a table; the offline push
 * of chat messages per day and channel (GET /push/offline/stats) as a table of its own.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class TrendPages extends ServicePages {

    /** The range push-service accepts (docs/push-statistics.md). */
    static final int MAX_DAYS = 90;
    private static final int DEFAULT_DAYS = 30;

    @Inject
    ObjectMapper json;
    @Inject
    Template trends;
    @Inject
    Language language;

    @GET
    @Path("trends")
    public Response trends(@Context HttpHeaders headers, @QueryParam("days") String days)
            throws JsonProcessingException {
        ConsoleSession session = guard.requireAdmin(headers);
        // a String, not an Integer: JAX-RS answers a query parameter it cannot convert with a bare 404
        Integer range = range(days);
        if (range == null) {
            return Response.ok(Pages.page(trends, session).data("days", Pages.text(days))
                    .data("daysError", language.msg().trends_days_error(MAX_DAYS, Pages.text(days)))
                    .data("rows", List.of()).data("chart", "").data("error", null)
                    .data("offlineRows", List.of()).data("offlineError", null)).build();
        }
        Answer answer = backend.get(Service.PUSH, "/push/stats/daily?days=" + range, session.credentials());
        List<Map<String, Object>> rows = rows(answer);
        rows.forEach(row -> row.put("received_measured", measured(row)));
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String chart = json.writeValueAsString(TrendSeries.of(rows, today.minusDays(range - 1L), today));
        // offline push of chat messages, counted apart (no push task per message; docs/offline-push.md)
        Answer offline = backend.get(Service.PUSH, "/push/offline/stats?days=" + range, session.credentials());
        return Response.ok(Pages.page(trends, session).data("days", range).data("rows", rows)
                .data("csv", "/console/trends.csv?days=" + range)
                .data("daysError", null).data("chart", chart).data("error", answer.ok() ? null : answer.error())
                .data("offlineRows", backend.plainList(offline.data()))
                .data("offlineError", offline.ok() ? null : offline.error())).build();
    }

    /**
     * The page's figures as CSV: a row per day and channel of the push tasks (GET /push/stats/daily), then of the
     * offline push of messages (GET /push/offline/stats), told apart by the first column.
     */
    @GET
    @Path("trends.csv")
    @Produces(Csv.MEDIA_TYPE)
    public Response csv(@Context HttpHeaders headers, @QueryParam("days") String days) {
        ConsoleSession session = guard.requireAdmin(headers);
        Integer range = range(days);
        if (range == null) {
            return plain(400, "days must be 1 to " + MAX_DAYS + ", not \"" + Pages.text(days) + "\".");
        }
        Answer answer = backend.get(Service.PUSH, "/push/stats/daily?days=" + range, session.credentials());
        Answer offline = backend.get(Service.PUSH, "/push/offline/stats?days=" + range, session.credentials());
        if (!answer.ok() || !offline.ok()) {
            return plain(502, "Daily statistics not available: " + (answer.ok() ? offline : answer).error());
        }
        Csv csv = new Csv(List.of("source", "date", "channel", "target", "sent", "received", "failed", "rejected"));
        for (Map<String, Object> row : rows(answer)) {
            csv.row(Arrays.asList("push tasks", row.get("date"), row.get("channel"), row.get("target"),
                    row.get("sent"), received(row), row.get("failed"), row.get("rejected")));
        }
        for (Map<String, Object> row : backend.plainList(offline.data())) {
            csv.row(Arrays.asList("offline push", row.get("day"), row.get("channel"), null, row.get("sent"),
                    row.get("received"), row.get("failed"), row.get("rejected")));
        }
        return csv.download("trends-" + range + "-days.csv");
    }

    private List<Map<String, Object>> rows(Answer daily) {
        return daily.ok() && daily.data() != null ? backend.plainList(daily.data().get("days")) : List.of();
    }

    /** ios and cloud send no delivery receipts: their received is "not measured", not 0. */
    private static Object received(Map<String, Object> row) {
        return measured(row) ? row.get("received") : DeliveryReceipts.NOT_MEASURED;
    }

    private static boolean measured(Map<String, Object> row) {
        return DeliveryReceipts.measured(String.valueOf(row.get("channel")));
    }

    private static Response plain(int status, String message) {
        return Response.status(status).type(MediaType.TEXT_PLAIN_TYPE + "; charset=utf-8").entity(message).build();
    }

    /** The page's range: 30 without {@code days}, the number when it is 1 to 90, else null (a bad value). */
    static Integer range(String days) {
        if (days == null || days.isBlank()) {
            return DEFAULT_DAYS;
        }
        try {
            int value = Integer.parseInt(days.strip());
            return value >= 1 && value <= MAX_DAYS ? value : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
