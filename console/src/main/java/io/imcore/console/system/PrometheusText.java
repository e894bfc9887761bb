package io.imcore.console.system;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the samples of one metric family from a Prometheus text exposition ({@code /q/metrics}): each sample's labels
 * and value. Enough for the counters the System page shows; not a general parser (no escapes inside label values).
 */
final class PrometheusText {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

    private PrometheusText() {
    }

    /** The samples of {@code metric}: label set (name=value, in their order) -> value. */
    static Map<Map<String, String>, Double> samples(String exposition, String metric) {
        Map<Map<String, String>, Double> samples = new LinkedHashMap<>();
        if (exposition == null) {
            return samples;
        }
        for (String line : exposition.split("\n")) {
            Matcher sample = SAMPLE.matcher(line.strip());
            if (line.startsWith("#") || !sample.matches() || !sample.group(1).equals(metric)) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (sample.group(3) != null) {
                Matcher label = LABEL.matcher(sample.group(3));
                while (label.find()) {
                    labels.put(label.group(1), label.group(2));
                }
            }
            try {
                samples.merge(labels, Double.parseDouble(sample.group(4)), Double::sum);
            } catch (NumberFormatException ignored) {
                // NaN and the like are no counts
            }
        }
        return samples;
    }
}
