package io.imcore.console.trend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrendSeriesTest {

    @Test
    @SuppressWarnings("unchecked")
    void everyDayOfTheRangeGetsAValuePerChannelAndDaysWithoutRowsAreZero() {
        List<Map<String, Object>> rows = List.of(
                Map.of("date", "2026-11-01", "channel", "vendor_b", "sent", 7, "failed", 1),
                Map.of("date", "2026-11-03", "channel", "ios", "sent", 4, "failed", 0),
                Map.of("date", "2026-10-20", "channel", "ios", "sent", 99, "failed", 99));

        Map<String, Object> chart = TrendSeries.of(rows, LocalDate.parse("2026-11-01"), LocalDate.parse("2026-11-03"));

        assertEquals(List.of(1793491200L, 1793577600L, 1793664000L), chart.get("x"));
        List<Map<String, Object>> series = (List<Map<String, Object>>) chart.get("series");
        assertEquals(List.of("ios sent", "ios failed", "vendor_b sent", "vendor_b failed"),
                series.stream().map(s -> s.get("label")).toList());
        assertArrayEquals(new long[] {0, 0, 4}, (long[]) series.get(0).get("values"));
        assertArrayEquals(new long[] {7, 0, 0}, (long[]) series.get(2).get("values"));
        assertArrayEquals(new long[] {1, 0, 0}, (long[]) series.get(3).get("values"));
    }
}
