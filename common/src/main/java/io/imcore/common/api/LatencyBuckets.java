package io.imcore.common.api;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.stream.LongStream;

/**
 * Fixed latency buckets for the HTTP server timer and our own {@code imcore.*} timers, so that a scrape before and
 * after a load phase tells how many calls took longer than a target (the latency targets of docs/benchmarks.md
 * are 20 and 50 ms) and where a slow call spent its time. A dozen buckets per series: cheap enough for every
 * replica, unlike a full percentile histogram.
 */
public class LatencyBuckets {

    static final long[] BOUNDS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000};

    @Produces
    @Singleton
    MeterFilter latencyBuckets() {
        double[] bounds = LongStream.of(BOUNDS_MS).mapToDouble(ms -> Duration.ofMillis(ms).toNanos()).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                boolean ours = id.getName().equals("http.server.requests") || id.getName().startsWith("imcore.");
                if (id.getType() != Meter.Type.TIMER || !ours || config.getServiceLevelObjectiveBoundaries() != null) {
                    return config; // not ours, or a timer with buckets of its own (offline push delays: seconds)
                }
                return DistributionStatisticConfig.builder().serviceLevelObjectives(bounds).build().merge(config);
            }
        };
    }
}
