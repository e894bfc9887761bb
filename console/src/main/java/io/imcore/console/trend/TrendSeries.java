package io.imcore.console.trend;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The rows of GET /push/stats/daily (one per day and channel that had a count) as uPlot's columnar data: one x value
 * per day of the range (UTC midnight in epoch seconds, days without rows are 0) and a sent and a failed series per
 * channel.
 */
final class TrendSeries {

    private TrendSeries() {
    }

    /** {@code {x:[...], series:[{label, values:[...]}]}} for the days {@code first..last}, both included. */
    static Map<String, Object> of(List<Map<String, Object>> rows, LocalDate first, LocalDate last) {
        List<LocalDate> days = first.datesUntil(last.plusDays(1)).toList();
        Map<LocalDate, Integer> dayIndex = new LinkedHashMap<>();
        List<Long> x = new ArrayList<>();
        for (LocalDate day : days) {
            dayIndex.put(day, x.size());
            x.add(day.atStartOfDay(ZoneOffset.UTC).toEpochSecond());
        }
        TreeSet<String> channels = new TreeSet<>();
        rows.forEach(row -> channels.add(String.valueOf(row.get("channel"))));
        Map<String, long[]> values = new LinkedHashMap<>();
        for (String channel : channels) {
            values.put(channel + " sent", new long[days.size()]);
            values.put(channel + " failed", new long[days.size()]);
        }
        for (Map<String, Object> row : rows) {
            Integer index = dayIndex.get(LocalDate.parse(String.valueOf(row.get("date"))));
            if (index == null) {
                continue; // a day outside the range asked for (the service's "today" may differ by a moment)
            }
            String channel = String.valueOf(row.get("channel"));
            values.get(channel + " sent")[index] += number(row.get("sent"));
            values.get(channel + " failed")[index] += number(row.get("failed"));
        }
        List<Map<String, Object>> series = new ArrayList<>();
        values.forEach((label, counts) -> series.add(Map.of("label", label, "values", counts)));
        return Map.of("x", x, "series", series);
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
