package io.imcore.push.stats;

import java.util.List;

/** data of GET /push/stats/daily: oldest day first, then channel. */
public record DailyStats(List<DailyRow> days) {}
