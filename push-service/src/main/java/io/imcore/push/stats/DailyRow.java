package io.imcore.push.stats;

/** One day (UTC, YYYY-MM-DD) and channel of GET /push/stats/daily: the counters of the tasks accepted that day. */
public record DailyRow(String date, String channel, long target, long sent, long received, long failed,
        long rejected) {}
