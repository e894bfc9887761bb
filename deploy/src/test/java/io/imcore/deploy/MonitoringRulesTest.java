package io.imcore.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The alert rules, their unit tests and the dashboards of deploy/monitoring, checked with Prometheus's own promtool
 * (Debian's prometheus package, installed by deploy/local/install-monitoring.sh when missing).
 */
class MonitoringRulesTest {

    private static final Path MONITORING = Path.of("monitoring");
    private static final Path OPERATIONS = Path.of("../docs/operations.md");
    /** Metric names in PromQL: what our services, the JVM, Agroal, Kafka's client and the exporters expose. */
    private static final Pattern METRIC = Pattern.compile(
            "\\b(?:up|(?:imcore|agroal|kafka|http_server|process|jvm|pg|nginx)_[a-z0-9_]+)\\b(?![:(])");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void promtoolInstalled() throws Exception {
        if (!onPath("promtool")) {
            run(List.of("local/install-monitoring.sh"));
        }
    }

    @Test
    void rulesAreValidPrometheusRules() throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool", "check", "rules"));
        files(MONITORING.resolve("rules"), ".yml").forEach(p -> command.add(p.toString()));
        run(command);
    }

    @Test
    void everyAlertFiresInItsTestsAndStaysSilentWhenItShould() throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool", "test", "rules"));
        files(MONITORING.resolve("tests"), ".test.yml").forEach(p -> command.add(p.toString()));
        run(command);
        // promtool checks the expectations; here: every alert has one test that fires and one that stays silent
        for (String alert : alerts()) {
            int firing = 0;
            int silent = 0;
            for (JsonNode test : ruleTests()) {
                for (JsonNode check : test.path("alert_rule_test")) {
                    if (check.path("alertname").asText().equals(alert)) {
                        if (check.path("exp_alerts").isEmpty()) {
                            silent++;
                        } else {
                            firing++;
                        }
                    }
                }
            }
            assertTrue(firing > 0, alert + " has no test in which it fires");
            assertTrue(silent > 0, alert + " has no test in which it stays silent");
        }
    }

    @Test
    void everyAlertHasARunbookInOperationsDoc() throws Exception {
        String operations = Files.readString(OPERATIONS);
        for (String alert : alerts()) {
            assertTrue(operations.contains("\n### " + alert + "\n"), "docs/operations.md has no section ### " + alert);
            for (JsonNode rule : rules()) {
                if (alert.equals(rule.path("alert").asText())) {
                    assertEquals("docs/operations.md#" + alert.toLowerCase(Locale.ROOT),
                            rule.path("annotations").path("runbook").asText(), alert + "'s runbook annotation");
                }
            }
        }
    }

    /** smoke.sh asks the local Prometheus for every series of series.txt: it must hold exactly those used. */
    @Test
    void seriesListHoldsEverySeriesTheRulesAndDashboardsUse() throws Exception {
        Set<String> used = new TreeSet<>();
        for (JsonNode rule : rules()) {
            used.addAll(metrics(rule.path("expr").asText()));
        }
        for (Path dashboard : files(MONITORING.resolve("dashboards"), ".json")) {
            JsonNode board = JSON.readTree(dashboard.toFile());
            assertFalse(board.path("panels").isEmpty(), dashboard + " has no panel");
            for (JsonNode panel : board.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    used.addAll(metrics(target.path("expr").asText()));
                }
            }
        }
        Set<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(MONITORING.resolve("series.txt"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                listed.add(line.trim().split("\\s+")[0]);
            }
        }
        assertEquals(used, listed, "deploy/monitoring/series.txt against the series the rules and dashboards use");
    }

    private static Set<String> metrics(String expr) {
        Set<String> names = new TreeSet<>();
        // label values and matchers are not series: drop quoted strings and {...} before matching names
        Matcher m = METRIC.matcher(expr.replaceAll("\"[^\"]*\"", "\"\"").replaceAll("\\{[^}]*}", "{}")
                .replaceAll("\\b(?:by|on|without|ignoring)\\s*\\([^)]*\\)", ""));
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    private static List<JsonNode> rules() throws IOException {
        List<JsonNode> rules = new ArrayList<>();
        for (Path file : files(MONITORING.resolve("rules"), ".yml")) {
            for (JsonNode group : YAML.readTree(file.toFile()).path("groups")) {
                group.path("rules").forEach(rules::add);
            }
        }
        return rules;
    }

    private static Set<String> alerts() throws IOException {
        Set<String> alerts = new TreeSet<>();
        for (JsonNode rule : rules()) {
            if (rule.hasNonNull("alert")) {
                alerts.add(rule.get("alert").asText());
            }
        }
        assertFalse(alerts.isEmpty(), "no alert rules found");
        return alerts;
    }

    private static List<JsonNode> ruleTests() throws IOException {
        List<JsonNode> tests = new ArrayList<>();
        for (Path file : files(MONITORING.resolve("tests"), ".test.yml")) {
            YAML.readTree(file.toFile()).path("tests").forEach(tests::add);
        }
        return tests;
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
            assertFalse(found.isEmpty(), "no " + suffix + " files in " + dir);
            return found;
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    private static void run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        int exit = process.waitFor();
        assertEquals(0, exit, String.join(" ", command) + " failed:\n" + output);
    }
}
