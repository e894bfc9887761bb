package io.imcore.console.push;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A task's deliveries over time (the {@code timeline} of GET /push/task/history: points per time bucket and channel)
 * as the chart's columnar data, the shape charts.js draws: every bucket from one before the first to one after the
 * last (a bucket without a point is 0, and a single bucket still draws a line), and per channel a sent series, a
 * received series where the channel measures deliveries, and a failed series (failed and rejected) where it had any.
 */
final class DeliveryTimeline {

    private DeliveryTimeline() {
    }

    /** {@code {x:[epoch seconds...], series:[{label, values}]}}, or null when there is no point. */
    static Map<String, Object> of(long bucketSeconds, List<Map<String, Object>> points) {
        if (points.isEmpty() || bucketSeconds <= 0) {
            return null;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        TreeSet<String> channels = new TreeSet<>();
        Map<String, Boolean> failures = new TreeMap<>();
        for (Map<String, Object> point : points) {
            long at = number(point.get("at")) / 1000;
            first = Math.min(first, at);
            last = Math.max(last, at);
            String channel = String.valueOf(point.get("channel"));
            channels.add(channel);
            failures.merge(channel, number(point.get("failed")) + number(point.get("rejected")) > 0, Boolean::logicalOr);
        }
        List<Long> x = new ArrayList<>();
        for (long at = first - bucketSeconds; at <= last + bucketSeconds; at += bucketSeconds) {
            x.add(at);
        }
        Map<String, long[]> series = new LinkedHashMap<>();
        for (String channel : channels) {
            series.put(channel + " sent", new long[x.size()]);
            if (DeliveryReceipts.measured(channel)) {
                series.put(channel + " received", new long[x.size()]);
            }
            if (failures.get(channel)) {
                series.put(channel + " failed", new long[x.size()]);
            }
        }
        for (Map<String, Object> point : points) {
            int index = (int) ((number(point.get("at")) / 1000 - x.get(0)) / bucketSeconds);
            String channel = String.valueOf(point.get("channel"));
            series.get(channel + " sent")[index] += number(point.get("sent"));
            long[] received = series.get(channel + " received");
            if (received != null) {
                received[index] += number(point.get("received"));
            }
            long[] failed = series.get(channel + " failed");
            if (failed != null) {
                failed[index] += number(point.get("failed")) + number(point.get("rejected"));
            }
        }
        List<Map<String, Object>> list = new ArrayList<>();
        series.forEach((label, values) -> list.add(Map.of("label", label, "values", values)));
        return Map.of("x", x, "series", list);
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }
}
