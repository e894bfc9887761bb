package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.push.AppPerTest;
import io.imcore.push.notify.Audience;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.notify.Strategy;
import io.imcore.push.task.TaskOrigin;
import io.imcore.push.task.TaskService;
import io.imcore.push.task.TaskState;
import io.imcore.push.task.TaskStats;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * A channel record never outgrows Kafka's record limit (1 MiB): with the production batch sizes (1000 targets per
 * vendor record) and provider tokens of 512 characters, the expander cuts a batch by bytes as well as by count.
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
@TestProfile(RecordBytesTest.ProductionBatches.class)
class RecordBytesTest extends AppPerTest {

    /** The defaults of application.properties instead of the test profile's tiny pages and batches. */
    public static class ProductionBatches implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.push.fanout.page-size", "5000",
                    "im.push.fanout.batch-sizes", "vendor_a=1000,vendor_b=1000,vendor_c=1000,vendor_d=1000,vendor_e=1000",
                    "im.push.fanout.default-batch-size", "500");
        }
    }

    private static final int USERS = 40;
    private static final int DEVICES_PER_USER = 30;

    @Inject
    TaskService taskService;
    @Inject
    Expander expander;
    @Inject
    ObjectMapper mapper;

    @Test
    void longTokensOfManyDevicesPerUserAreCutIntoRecordsWithinTheBudgetEachDeviceOnce() throws Exception {
        Set<Long> devices = new TreeSet<>();
        for (int u = 0; u < USERS; u++) {
            devices.addAll(api.devicesWithLongTokens(api.newUser(), DEVICES_PER_USER, "vendor_a"));
        }

        long task = accept();
        TaskStats stats = awaitExpanded(task);

        assertEquals(TaskState.DISPATCHING, stats.state(), "expanded, not failed: " + stats.failureReason());
        assertEquals(USERS * DEVICES_PER_USER, stats.counters().get("vendor_a")[0]);
        List<ConsumerRecord<String, String>> records = TopicReader.await(Channel.HUAWEI.topic(),
                r -> r.key().startsWith(task + ":"), stats.batchesTotal(), Duration.ofSeconds(20));
        assertEquals(stats.batchesTotal(), records.size());
        int budget = ConfigProvider.getConfig().getValue("im.push.fanout.record-max-bytes", Integer.class);
        List<Long> sent = new ArrayList<>();
        Set<Integer> numbers = new TreeSet<>();
        for (ConsumerRecord<String, String> record : records) {
            int bytes = record.value().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(bytes <= budget, "record " + record.key() + " holds " + bytes + " bytes");
            PushBatch batch = mapper.readValue(record.value(), PushBatch.class);
            assertTrue(batch.targets().size() <= 1000, "and never more targets than the channel's batch size");
            batch.targets().forEach(t -> sent.add(t.deviceId()));
            numbers.add(batch.batchNo());
        }
        assertEquals(devices.size(), sent.size(), "no device twice");
        assertEquals(devices, new TreeSet<>(sent), "every device");
        assertTrue(records.size() > 2, "1200 devices of 1.6 kB make more than the two records a count cut makes");
        assertEquals(records.size(), numbers.size());
        assertEquals(records.size() - 1, (int) ((TreeSet<Integer>) numbers).last(), "batch numbers 0..n-1");
    }

    private long accept() {
        PushRequest request = new PushRequest(Audience.all(), null, Strategy.OSPUSH_ONLY, List.of(Channel.HUAWEI),
                mapper.createObjectNode().put("type", "text").put("title", "t").put("body", "b"), null, null, null);
        long id = taskService.store(api.appId, request, TaskState.ACCEPTED, new TaskOrigin(TaskOrigin.API, 1))
                .taskId();
        expander.wake();
        return id;
    }

    private TaskStats awaitExpanded(long task) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        TaskStats stats;
        do {
            stats = taskService.stats(api.appId, List.of(task)).get(0);
            if (stats.state() != TaskState.ACCEPTED && stats.state() != TaskState.EXPANDING) {
                return stats;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("task " + task + " not expanded in time: " + stats.state());
    }
}
