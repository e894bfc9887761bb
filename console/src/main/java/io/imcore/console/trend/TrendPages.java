package io.imcore.console.trend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Pages;
import io.imcore.console.page.SessionGuard;
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
import java.util.List;
import java.util.Map;

/**
 * Trends: daily sent and failed per channel (GET /push/stats/daily) as a uPlot chart and as a table; the offline push
 * of chat messages per day and channel (GET /push/offline/stats) as a table of its own.
 */
@Path("/trends")
@Produces(MediaType.TEXT_HTML)
public class TrendPages {

    /** The range push-service accepts (docs/push-statistics.md). */
    static final int MAX_DAYS = 90;
    private static final int DEFAULT_DAYS = 30;

    @Inject
    SessionGuard guard;
    @Inject
    BackendClient backend;
    @Inject
    ObjectMapper json;
    @Inject
    Template trends;

    @GET
    public Response trends(@Context HttpHeaders headers, @QueryParam("days") String days)
            throws JsonProcessingException {
        ConsoleSession session = guard.requireAdmin(headers);
        // a String, not an Integer: JAX-RS answers a query parameter it cannot convert with a bare 404
        Integer range = range(days);
        if (range == null) {
            return Response.ok(Pages.page(trends, session).data("days", Pages.text(days))
                    .data("daysError", "days must be 1 to " + MAX_DAYS + ", not \"" + Pages.text(days) + "\".")
                    .data("rows", List.of()).data("chart", "").data("error", null)
                    .data("offlineRows", List.of()).data("offlineError", null)).build();
        }
        Answer answer = backend.get(Service.PUSH, "/push/stats/daily?days=" + range, session.credentials());
        List<Map<String, Object>> rows = answer.ok() && answer.data() != null
                ? backend.plainList(answer.data().get("days"))
                : List.of();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String chart = json.writeValueAsString(TrendSeries.of(rows, today.minusDays(range - 1L), today));
        // offline push of chat messages, counted apart (no push task per message; docs/offline-push.md)
        Answer offline = backend.get(Service.PUSH, "/push/offline/stats?days=" + range, session.credentials());
        return Response.ok(Pages.page(trends, session).data("days", range).data("rows", rows)
                .data("daysError", null).data("chart", chart).data("error", answer.ok() ? null : answer.error())
                .data("offlineRows", backend.plainList(offline.data()))
                .data("offlineError", offline.ok() ? null : offline.error())).build();
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
