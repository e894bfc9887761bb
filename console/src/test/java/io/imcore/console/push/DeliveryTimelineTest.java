package io.imcore.console.push;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryTimelineTest {

    private static Map<String, Object> point(long atMillis, String channel, long sent, long failed, long rejected,
            long received) {
        return Map.of("at", atMillis, "channel", channel, "sent", sent, "failed", failed, "rejected", rejected,
                "received", received);
    }

    @Test
    void everyBucketFromOneBeforeToOneAfterWithZerosBetween() {
        Map<String, Object> chart = DeliveryTimeline.of(10, List.of(
                point(100_000, "vendor_b", 3, 0, 0, 1),
                point(130_000, "vendor_b", 0, 1, 1, 2),
                point(100_000, "ios", 2, 0, 0, 0)));

        assertEquals(List.of(90L, 100L, 110L, 120L, 130L, 140L), chart.get("x"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> series = (List<Map<String, Object>>) chart.get("series");
        // APNs: sent only (no receipts, no failures); Xiaomi: sent, received, failed (failed + rejected)
        assertEquals(List.of("ios sent", "vendor_b sent", "vendor_b received", "vendor_b failed"),
                series.stream().map(s -> s.get("label")).toList());
        assertArrayEquals(new long[] {0, 2, 0, 0, 0, 0}, (long[]) series.get(0).get("values"));
        assertArrayEquals(new long[] {0, 3, 0, 0, 0, 0}, (long[]) series.get(1).get("values"));
        assertArrayEquals(new long[] {0, 1, 0, 0, 2, 0}, (long[]) series.get(2).get("values"));
        assertArrayEquals(new long[] {0, 0, 0, 0, 2, 0}, (long[]) series.get(3).get("values"));
    }

    @Test
    void noPointsNoChart() {
        assertNull(DeliveryTimeline.of(0, List.of()));
        assertNull(DeliveryTimeline.of(60, List.of()));
    }
}
