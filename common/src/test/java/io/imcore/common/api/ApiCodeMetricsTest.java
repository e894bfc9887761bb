package io.imcore.common.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ApiCodeMetricsTest {

    @Test
    void objectiveRoutesAreNamedAndEveryOtherPathCountsAsOther() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ApiCodeMetrics.count(registry, "/message/send", 50003);
        ApiCodeMetrics.count(registry, "/message/send", 200);
        ApiCodeMetrics.count(registry, "/message/send", 200);
        String invented = "/no/such/path/" + System.nanoTime();
        ApiCodeMetrics.count(registry, invented, 200);

        assertEquals(1, registry.get("imcore.api.responses").tags("route", "/message/send", "code", "50003")
                .counter().count());
        assertEquals(2, registry.get("imcore.api.responses").tags("route", "/message/send", "code", "200")
                .counter().count());
        assertEquals(1, registry.get("imcore.api.responses").tags("route", "other", "code", "200").counter().count());
        assertNull(registry.find("imcore.api.responses").tags("route", invented).counter());
    }
}
