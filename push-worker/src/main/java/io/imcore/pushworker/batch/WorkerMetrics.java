package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Prometheus metrics per channel (docs/push-worker.md): targets by outcome, retries, provider call latency and
 * batches in flight. Consumer lag comes from the Kafka client metrics ({@code kafka_consumer_fetch_manager_records_lag_max}).
 */
@ApplicationScoped
public class WorkerMetrics {

    /** Outcomes of a target, the {@code outcome} tag of imcore_push_worker_targets_total. */
    enum Result {
        SENT, REJECTED, FAILED, EXPIRED, FALLBACK
    }

    private static final Duration[] OFFLINE_DELAY_BUCKETS = Stream.of(100, 250, 500, 1_000, 2_500, 5_000, 10_000,
            30_000, 60_000, 120_000).map(Duration::ofMillis).toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final Map<Channel, Map<Result, Counter>> targets = new EnumMap<>(Channel.class);
    private final Map<Channel, Counter> retries = new EnumMap<>(Channel.class);
    private final Map<Channel, Timer> calls = new EnumMap<>(Channel.class);
    private final Map<Channel, AtomicInteger> inFlight = new EnumMap<>(Channel.class);
    private final Map<Channel, Timer> offlineDelay = new EnumMap<>(Channel.class);

    public WorkerMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Channel channel : Channel.values()) {
            String name = channel.wireName();
            Map<Result, Counter> byResult = new EnumMap<>(Result.class);
            for (Result result : Result.values()) {
                byResult.put(result, Counter.builder("imcore.push.worker.targets").tag("channel", name)
                        .tag("outcome", result.name().toLowerCase()).description("targets by outcome")
                        .register(registry));
            }
            targets.put(channel, byResult);
            retries.put(channel, Counter.builder("imcore.push.worker.retries").tag("channel", name)
                    .description("targets sent again after a transient failure").register(registry));
            calls.put(channel, Timer.builder("imcore.push.worker.provider.call").tag("channel", name)
                    .description("one adapter call (one provider request, or a set of per-token requests)")
                    .publishPercentiles(0.5, 0.99).register(registry));
            AtomicInteger gauge = new AtomicInteger();
            registry.gauge("imcore.push.worker.batches.in.flight", io.micrometer.core.instrument.Tags.of("channel", name),
                    gauge);
            inFlight.put(channel, gauge);
            // seconds to minutes, not common's request buckets: a cold stack takes tens of seconds (docs/benchmarks.md)
            offlineDelay.put(channel, Timer.builder("imcore.offline_push.delay").tag("channel", name)
                    .description("from a message's store to the provider's accept of its offline push, per device")
                    .serviceLevelObjectives(OFFLINE_DELAY_BUCKETS).register(registry));
        }
    }

    void targets(Channel channel, Result result, int count) {
        if (count > 0) {
            targets.get(channel).get(result).increment(count);
        }
    }

    /** {@code sent} devices of the offline push of a message stored at {@code createdMs} were accepted now. */
    void offlinePushSent(Channel channel, long createdMs, int sent) {
        if (createdMs <= 0) {
            return; // a record written before the store time was carried
        }
        Duration delay = Duration.ofMillis(Math.max(0, System.currentTimeMillis() - createdMs));
        Timer timer = offlineDelay.get(channel);
        for (int i = 0; i < sent; i++) {
            timer.record(delay);
        }
    }

    void retried(Channel channel, int count) {
        retries.get(channel).increment(count);
    }

    Timer calls(Channel channel) {
        return calls.get(channel);
    }

    AtomicInteger inFlight(Channel channel) {
        return inFlight.get(channel);
    }

    MeterRegistry registry() {
        return registry;
    }
}
