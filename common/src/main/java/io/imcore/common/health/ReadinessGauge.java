package io.imcore.common.health;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code imcore_health_ready}: 1 while the readiness checks of /q/health/ready pass, else 0, so that Prometheus
 * can alert on a service that runs but is not ready (docs/operations.md). A scrape reads the last result and starts
 * a fresh check in the background when it is older than {@link #MAX_AGE_NANOS}: the checks (database, Kafka) never
 * run on the scrape's thread, and the value is at most one scrape old.
 */
@ApplicationScoped
public class ReadinessGauge {

    private static final long MAX_AGE_NANOS = 5_000_000_000L;

    private final SmallRyeHealthReporter health;
    private final AtomicBoolean checking = new AtomicBoolean();
    private volatile double ready = Double.NaN;
    private volatile long checkedAt = System.nanoTime() - MAX_AGE_NANOS;

    public ReadinessGauge(SmallRyeHealthReporter health) {
        this.health = health;
    }

    void register(@Observes StartupEvent event, MeterRegistry registry) {
        Gauge.builder("imcore.health.ready", this, ReadinessGauge::read)
                .description("1 when the readiness checks pass, 0 when one fails").register(registry);
    }

    private double read() {
        if (System.nanoTime() - checkedAt >= MAX_AGE_NANOS && checking.compareAndSet(false, true)) {
            health.getReadinessAsync().subscribe().with(
                    result -> record(result.isDown() ? 0 : 1),
                    failure -> record(0));
        }
        return ready;
    }

    private void record(double value) {
        ready = value;
        checkedAt = System.nanoTime();
        checking.set(false);
    }
}
