package io.imcore.console.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.console.page.ConsoleMessages;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The System page's last hour per channel from Prometheus (docs/console.md "System"): delivery rate, failures and
 * push-worker's consumer lag, each as uPlot's columnar data for charts.js. Only when im.console.prometheus-url is
 * set (the local stack sets its own Prometheus); without it, or when Prometheus does not answer, the page keeps its
 * per-view numbers. The queries use the series of deploy/monitoring/series.txt, which smoke.sh checks.
 */
@ApplicationScoped
public class PrometheusHistory {

    static final Duration RANGE = Duration.ofHours(1);
    static final Duration STEP = Duration.ofMinutes(1);
    /** The three charts: id, what the y axis counts, query (a series per channel). */
    static final List<Chart> CHARTS = List.of(
            new Chart("history-sent", ConsoleMessages::system_unit_sent,
                    "sum by (channel) (rate(imcore_push_worker_targets_total{outcome=\"sent\"}[2m]))"),
            new Chart("history-failed", ConsoleMessages::system_unit_failed,
                    "sum by (channel) (rate(imcore_push_worker_targets_total{outcome=~\"failed|rejected\"}[2m]))"),
            new Chart("history-lag", ConsoleMessages::system_unit_lag,
                    "sum by (channel) (label_replace(kafka_consumer_fetch_manager_records_lag{job=\"push-worker\","
                            + "topic=~\"push[.].+\"}, \"channel\", \"$1\", \"topic\", \"push[.](.+)\"))"));
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** {@code unit}: what the y axis counts, in the page's language. */
    record Chart(String id, Function<ConsoleMessages, String> unit, String query) {}

    private final Optional<String> prometheusUrl;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public PrometheusHistory(@ConfigProperty(name = "im.console.prometheus-url") Optional<String> prometheusUrl,
            ObjectMapper json) {
        this.prometheusUrl = prometheusUrl.map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
        this.json = json;
    }

    /** The last hour, or why it is missing. */
    public record History(List<Map<String, Object>> charts, String unavailable) {}

    public History lastHour(ConsoleMessages msg) {
        if (prometheusUrl.isEmpty()) {
            return new History(List.of(), msg.system_no_prometheus());
        }
        long end = System.currentTimeMillis() / 1000 / STEP.toSeconds() * STEP.toSeconds();
        long start = end - RANGE.toSeconds();
        List<Map<String, Object>> charts = new ArrayList<>();
        for (Chart chart : CHARTS) {
            Optional<JsonNode> answer = queryRange(chart.query(), start, end);
            if (answer.isEmpty()) {
                return new History(List.of(), msg.system_prometheus_silent(prometheusUrl.get()));
            }
            Map<String, Object> drawn = new LinkedHashMap<>();
            drawn.put("id", chart.id());
            drawn.put("unit", chart.unit().apply(msg));
            try {
                drawn.put("data", json.writeValueAsString(columns(answer.get(), start, end)));
            } catch (IOException e) {
                throw new IllegalStateException("chart data must serialize", e);
            }
            charts.add(drawn);
        }
        return new History(charts, null);
    }

    /**
     * A query_range answer as {@code {x:[...], series:[{label, values}]}}: one x per step from start to end, a series per
     * channel in name order, null where Prometheus has no sample.
     */
    static Map<String, Object> columns(JsonNode answer, long start, long end) {
        List<Long> x = new ArrayList<>();
        for (long t = start; t <= end; t += STEP.toSeconds()) {
            x.add(t);
        }
        Map<String, Double[]> byChannel = new TreeMap<>();
        for (JsonNode series : answer.path("data").path("result")) {
            Double[] values = byChannel.computeIfAbsent(series.path("metric").path("channel").asText("-"),
                    channel -> new Double[x.size()]);
            for (JsonNode point : series.path("values")) {
                int index = (int) ((point.get(0).asDouble() - start) / STEP.toSeconds());
                if (index >= 0 && index < values.length) {
                    double value = Double.parseDouble(point.get(1).asText());
                    values[index] = Double.isFinite(value) ? value : null;
                }
            }
        }
        List<Map<String, Object>> series = new ArrayList<>();
        byChannel.forEach((channel, values) -> series.add(Map.of("label", channel, "values", values)));
        return Map.of("x", x, "series", series);
    }

    private Optional<JsonNode> queryRange(String query, long start, long end) {
        String url = prometheusUrl.get() + "/api/v1/query_range?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&start=" + start + "&end=" + end + "&step=" + STEP.toSeconds();
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.statusCode() == 200 ? json.readTree(response.body()) : null;
            return body != null && "success".equals(body.path("status").asText()) ? Optional.of(body) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
