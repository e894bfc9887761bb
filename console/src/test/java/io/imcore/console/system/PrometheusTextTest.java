package io.imcore.console.system;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String EXPOSITION = """
            # HELP imcore_push_worker_targets_total targets by outcome
            # TYPE imcore_push_worker_targets_total counter
            imcore_push_worker_targets_total{channel="vendor_b",outcome="sent"} 12.0
            imcore_push_worker_targets_total{channel="vendor_b",outcome="failed"} 2.0
            imcore_push_worker_targets_total{channel="ios",outcome="sent"} 3.0
            imcore_push_worker_retries_total{channel="ios"} 9.0
            imcore_push_worker_targets_total_created{channel="ios",outcome="sent"} 1.7E9
            """;

    @Test
    void readsTheSamplesOfOneMetricWithTheirLabels() {
        Map<Map<String, String>, Double> samples = PrometheusText.samples(EXPOSITION, "imcore_push_worker_targets_total");
        assertEquals(3, samples.size());
        assertEquals(12.0, samples.get(Map.of("channel", "vendor_b", "outcome", "sent")));
        assertEquals(2.0, samples.get(Map.of("channel", "vendor_b", "outcome", "failed")));
        assertEquals(3.0, samples.get(Map.of("channel", "ios", "outcome", "sent")));
    }

    @Test
    void noExpositionNoSamples() {
        assertEquals(Map.of(), PrometheusText.samples(null, "imcore_push_worker_targets_total"));
    }
}
