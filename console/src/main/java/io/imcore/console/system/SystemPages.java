package io.imcore.console.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.backend.BackendClient.Answer;
import io.imcore.console.backend.BackendClient.Service;
import io.imcore.console.page.ConsoleMessages;
import io.imcore.console.page.ConsoleSession;
import io.imcore.console.page.Language;
import io.imcore.console.page.Pages;
import io.imcore.console.page.ServicePages;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operator's System page: readiness of every service ({@code /q/health/ready}), consumer lag per channel
 * (push-service {@code GET /push/system/lag}) and push-worker's targets per channel and outcome from its Prometheus
 * counter {@code imcore_push_worker_targets_total} (docs/push-worker.md "Metrics"), with the rate since the previous view;
 * with a Prometheus configured, also the last hour of delivery rate, failures and lag per channel
 * ({@link PrometheusHistory}).
 * Health and metrics are not routed by the gateway: the service URLs must reach the services themselves.
 */
@Path("/system")
@Produces(MediaType.TEXT_HTML)
public class SystemPages extends ServicePages {

    static final String TARGETS_METRIC = "imcore_push_worker_targets_total";

    @Inject
    ObjectMapper json;
    @Inject
    Template system;
    @Inject
    PrometheusHistory prometheus;
    @Inject
    Language language;

    /** The previous sample of push-worker's counters, for a rate over the time between two views. */
    private volatile Map<Map<String, String>, Double> previousTargets = Map.of();
    private volatile long previousAt;

    @GET
    public Response page(@Context HttpHeaders headers) {
        ConsoleSession session = guard.requireOperator(headers);
        ConsoleMessages msg = language.msg();
        List<Map<String, Object>> health = new ArrayList<>();
        for (Service service : Service.values()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("service", service.name().toLowerCase().replace('_', '-'));
            row.put("status", readiness(backend.text(service, "/q/health/ready"), msg));
            health.add(row);
        }
        Answer lag = backend.get(Service.PUSH, "/push/system/lag", session.credentials());
        JsonNode channels = lag.ok() && lag.data() != null ? lag.data().get("list") : null;
        PrometheusHistory.History history = prometheus.lastHour(msg);
        return Response.ok(Pages.page(system, session).data("health", health)
                .data("history", history.charts()).data("historyUnavailable", history.unavailable())
                .data("lag", backend.plainList(channels)).data("lagError", lag.ok() ? null : lag.error())
                .data("targets", targets(backend.text(Service.PUSH_WORKER, "/q/metrics"), msg))).build();
    }

    private String readiness(String body, ConsoleMessages msg) {
        if (body == null) {
            return msg.system_down();
        }
        try {
            return json.readTree(body).path("status").asText(msg.system_unknown());
        } catch (IOException e) {
            return msg.system_unknown();
        }
    }

    private List<Map<String, Object>> targets(String metrics, ConsoleMessages msg) {
        Map<Map<String, String>, Double> now = PrometheusText.samples(metrics, TARGETS_METRIC);
        long at = System.currentTimeMillis();
        Map<Map<String, String>, Double> before = previousTargets;
        double seconds = (at - previousAt) / 1000.0;
        List<Map<String, Object>> rows = new ArrayList<>();
        now.forEach((labels, total) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("channel", labels.getOrDefault("channel", "-"));
            row.put("outcome", labels.getOrDefault("outcome", "-"));
            row.put("total", Math.round(total));
            Double earlier = before.get(labels);
            row.put("rate", earlier == null || seconds <= 0 ? "-"
                    : msg.system_rate(String.format("%.1f", Math.max(0, total - earlier) / seconds),
                            String.format("%.0f", seconds)));
            rows.add(row);
        });
        previousTargets = now;
        previousAt = at;
        return rows;
    }
}
