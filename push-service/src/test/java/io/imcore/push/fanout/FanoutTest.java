package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.push.AppPerTest;
import io.imcore.push.notify.Audience;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.notify.Strategy;
import io.imcore.push.task.ExpansionCheckpoint;
import io.imcore.push.task.TaskOrigin;
import io.imcore.push.task.TaskState;
import io.imcore.push.task.TaskStats;
import io.imcore.push.task.TaskService;
import io.imcore.push.task.TaskStore;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Audience expansion end to end: tasks stored as POST /push/notify stores them, expanded by the running expander
 * onto the real channel topics (test profile: pages of 7 devices, records of 3 targets, 4 on Huawei).
 */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class FanoutTest extends AppPerTest {

    private static final List<Channel> UPS_THEN_CLOUD = List.of(Channel.HUAWEI, Channel.XIAOMI, Channel.OPPO,
            Channel.VIVO, Channel.MEIZU, Channel.FCM);

    @Inject
    TaskStore tasks;
    @Inject
    TaskService taskService;
    @Inject
    Expander expander;
    @Inject
    ObjectMapper mapper;
    @Inject
    ChannelRecords channelRecords;
    @Inject
    ChannelRecordWriter writer;

    @Test
    void combinedSendsOnlineDevicesToSvcpushAndOthersToTheirOsChannel() {
        long alice = api.newUser();
        long bob = api.newUser();
        String iphone = api.newDevice(alice, 1);
        api.bindToken(iphone, "ios", "apns-1");
        String huawei = api.newDevice(alice, 2);
        api.bindToken(huawei, "vendor_a", "hms-1");
        String pixel = api.newDevice(bob, 1);
        api.bindToken(pixel, "cloud", "fcm-1");
        String xiaomiOnline = api.newDevice(bob, 2);
        api.bindToken(xiaomiOnline, "vendor_b", "mi-1");
        api.setOnline(bob, 2);
        api.newDevice(bob, 3); // no provider token, offline: unreachable

        long task = accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, null, null);

        TaskStats stats = awaitFinished(task);
        assertEquals(TaskState.DISPATCHING, stats.state());
        assertEquals(5, stats.devicesExpanded());
        assertEquals(Map.of("ios", 1, "vendor_a", 1, "cloud", 1, "svcpush", 1), targets(stats));
        PushBatch ios = single(batches(task, Channel.APNS, 1));
        assertEquals("apns-1", ios.targets().get(0).token());
        assertEquals("ios-prod", ios.targets().get(0).notifierName());
        assertEquals(api.deviceId(iphone), ios.targets().get(0).deviceId());
        assertEquals("hms-1", single(batches(task, Channel.HUAWEI, 1)).targets().get(0).token());
        assertEquals("fcm-1", single(batches(task, Channel.FCM, 1)).targets().get(0).token());
        PushBatch.Target live = single(batches(task, Channel.SVCPUSH, 1)).targets().get(0);
        assertEquals(bob, live.userId());
        assertEquals(2, live.deviceSn());
        assertNull(live.token());
        assertEquals(new PushBatch.OsRoute("vendor_b", "mi-1", "vendor_b-prod", 1), live.fallback());
    }

    @Test
    void svcpushOnlyReachesOnlineDevicesOnly() {
        long alice = api.newUser();
        api.bindToken(api.newDevice(alice, 1), "ios", "apns-2");
        api.newDevice(alice, 2);
        api.setOnline(alice, 2);

        long task = accept(Audience.all(), Strategy.SVCPUSH_ONLY, UPS_THEN_CLOUD, null, null);

        assertEquals(Map.of("svcpush", 1), targets(awaitFinished(task)));
        PushBatch.Target live = single(batches(task, Channel.SVCPUSH, 1)).targets().get(0);
        assertEquals(2, live.deviceSn());
        assertNull(live.fallback(), "svcpush_only has no OS fallback");
    }

    @Test
    void ospushOnlyUsesTheOsChannelEvenForOnlineDevices() {
        long alice = api.newUser();
        String phone = api.newDevice(alice, 1);
        api.bindToken(phone, "vendor_c", "oppo-1");
        api.setOnline(alice, 1);
        api.newDevice(alice, 2);
        api.setOnline(alice, 2); // online but no token: unreachable without svcpush

        long task = accept(Audience.all(), Strategy.OSPUSH_ONLY, UPS_THEN_CLOUD, null, null);

        assertEquals(Map.of("vendor_c", 1), targets(awaitFinished(task)));
        assertEquals("oppo-1", single(batches(task, Channel.OPPO, 1)).targets().get(0).token());
    }

    @Test
    void theSequenceOrderPicksAmongTokensAndIosAlwaysWins() {
        long alice = api.newUser();
        String both = api.newDevice(alice, 1);
        api.bindToken(both, "vendor_d", "vivo-1");
        api.bindToken(both, "cloud", "fcm-2");
        String iphone = api.newDevice(alice, 2);
        api.bindToken(iphone, "ios", "apns-3");
        api.bindToken(iphone, "cloud", "fcm-3");
        String vendorOnly = api.newDevice(alice, 3);
        api.bindToken(vendorOnly, "vendor_e", "meizu-1");

        long task = accept(Audience.all(), Strategy.OSPUSH_ONLY, List.of(Channel.FCM), null, null);

        assertEquals(Map.of("cloud", 1, "ios", 1), targets(awaitFinished(task)),
                "cloud comes first; vendor_e is not in the sequence; ios is not subject to it");
        assertEquals("fcm-2", single(batches(task, Channel.FCM, 1)).targets().get(0).token());
    }

    @Test
    void eachAudienceFormSelectsExactlyItsDevicesAndOptedOutOrDisabledUsersAreLeftOut() {
        long alice = api.newUser();
        long bob = api.newUser();
        long carol = api.newUser();
        String a1 = online(alice, 1);
        String a2 = online(alice, 2);
        String b1 = online(bob, 1);
        String c1 = online(carol, 1);
        api.tag(alice, "vip");
        api.tag(carol, "vip");
        api.tag(bob, "new");
        api.alias(b1, "bobby");
        api.alias(a2, "bobby");
        api.optOut(carol);
        long dave = api.newUser();
        String d1 = online(dave, 1);
        api.tag(dave, "vip");
        api.disable(dave);

        assertEquals(Set.of(a1, a2), devicesReached(new Audience(Audience.Form.USER_ID, List.of(), List.of(alice))));
        assertEquals(Set.of(b1), devicesReached(new Audience(Audience.Form.USER_ID, List.of(), List.of(bob, carol))));
        assertEquals(Set.of(a2, b1), devicesReached(new Audience(Audience.Form.PUSH_TOKEN, List.of(a2, b1), List.of())));
        assertEquals(Set.of(a2, b1), devicesReached(new Audience(Audience.Form.ALIAS, List.of("bobby"), List.of())));
        assertEquals(Set.of(a1, a2), devicesReached(new Audience(Audience.Form.TAG, List.of("vip"), List.of())));
        assertEquals(Set.of(a1, a2, b1), devicesReached(new Audience(Audience.Form.TAG, List.of("vip", "new"), List.of())));
        assertEquals(Set.of(a1, a2, b1), devicesReached(Audience.all()));
        assertEquals(Set.of(), devicesReached(new Audience(Audience.Form.PUSH_TOKEN, List.of(c1, d1), List.of())),
                "opted out, disabled");
    }

    @Test
    void aTaskWithoutReachableDevicesIsDoneWithZeros() {
        api.newDevice(api.newUser(), 1);

        TaskStats stats = awaitFinished(accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, null, null));

        assertEquals(TaskState.DONE, stats.state());
        assertEquals(1, stats.devicesExpanded());
        assertEquals(0, stats.batchesTotal());
        assertEquals(Map.of(), targets(stats));
    }

    @Test
    void aTaskWhoseExpansionKeepsFailingEndsFailedWithItsReasonAndDoesNotHoldUpOthers() {
        long alice = api.newUser();
        api.bindToken(api.newDevice(alice, 1), "ios", "apns-poison");
        // stored as scheduled (not due yet), then made due with a request the expander cannot read: every attempt
        // fails the same way
        long poisoned = accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD,
                Instant.now().getEpochSecond() + 3600, null);
        database.inTransaction(c -> {
            try (var ps = c.prepareStatement("update push_tasks set request = '{\"audience\": 5}',"
                    + " show_begin_at = null, state = 'accepted' where task_id = ?")) {
                ps.setLong(1, poisoned);
                return ps.executeUpdate();
            }
        });
        long healthy = accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, null, null);
        assertEquals(TaskState.DISPATCHING, awaitFinished(healthy).state(), "a later task is not held up");

        TaskStats failed = awaitFinished(poisoned);
        assertEquals(TaskState.FAILED, failed.state());
        assertNotNull(failed.failureReason());
        assertEquals(3, (int) database.read(c -> tasks.expansionFailures(c, poisoned)), "max-failures in the test profile");
    }

    @Test
    void recordsAcrossStepsCoverEveryDeviceOnceWithConsecutiveBatchNumbers() {
        Set<Long> huaweiDevices = new TreeSet<>();
        Set<Long> cloudDevices = new TreeSet<>();
        for (int i = 0; i < 17; i++) {
            long user = api.newUser();
            String device = api.newDevice(user, 1);
            api.bindToken(device, "vendor_a", "hms-" + i);
            huaweiDevices.add(api.deviceId(device));
            String other = api.newDevice(user, 2);
            api.bindToken(other, "cloud", "fcm-" + i);
            cloudDevices.add(api.deviceId(other));
        }

        long task = accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, null, null);
        TaskStats stats = awaitFinished(task);

        assertEquals(Map.of("vendor_a", 17, "cloud", 17), targets(stats));
        assertEquals(34, stats.devicesExpanded());
        List<PushBatch> huawei = batches(task, Channel.HUAWEI, Integer.MAX_VALUE);
        List<PushBatch> cloud = batches(task, Channel.FCM, Integer.MAX_VALUE);
        assertEquals(huaweiDevices, deviceIds(huawei));
        assertEquals(17, huawei.stream().mapToInt(b -> b.targets().size()).sum(), "no device twice");
        assertEquals(cloudDevices, deviceIds(cloud));
        assertEquals(17, cloud.stream().mapToInt(b -> b.targets().size()).sum(), "no device twice");
        assertTrue(huawei.stream().allMatch(b -> b.targets().size() <= 4), "Huawei records hold up to 4");
        assertTrue(cloud.stream().allMatch(b -> b.targets().size() <= 3), "other records hold up to 3");
        List<Integer> numbers = new ArrayList<>();
        huawei.forEach(b -> numbers.add(b.batchNo()));
        cloud.forEach(b -> numbers.add(b.batchNo()));
        numbers.sort(null);
        assertEquals(stats.batchesTotal(), numbers.size());
        for (int i = 0; i < numbers.size(); i++) {
            assertEquals(i, numbers.get(i), "batch numbers are 0..n-1, each once");
        }
        assertTrue(stats.batchesTotal() >= 5 + 6, "34 devices in pages of 7 make at least 11 records");
    }

    @Test
    void aScheduledTaskWaitsForItsBeginTime() {
        long alice = api.newUser();
        online(alice, 1);
        long task = accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD,
                Instant.now().getEpochSecond() + 3_600, null);

        // a task due at once, accepted after it: the expander takes due tasks oldest first, so it passed this one
        awaitFinished(accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, null, null));
        assertEquals(TaskState.SCHEDULED, stats(task).state());
        long begin = Instant.now().getEpochSecond() + 1;
        database.inTransaction(c -> {
            try (var ps = c.prepareStatement("update push_tasks set show_begin_at = to_timestamp(?)"
                    + " where task_id = ?")) {
                ps.setLong(1, begin);
                ps.setLong(2, task);
                return ps.executeUpdate();
            }
        });
        TaskStats stats = awaitFinished(task);
        assertTrue(Instant.now().getEpochSecond() >= begin, "expanded once its begin time came");
        assertEquals(Map.of("svcpush", 1), targets(stats));
    }

    @Test
    void aTaskPastItsEndTimeExpiresWithoutRecords() {
        online(api.newUser(), 1);
        long now = Instant.now().getEpochSecond();

        TaskStats stats = awaitFinished(accept(Audience.all(), Strategy.COMBINED, UPS_THEN_CLOUD, now - 60, now - 1));

        assertEquals(TaskState.EXPIRED, stats.state());
        assertEquals(0, stats.batchesTotal());
    }

    @Test
    void aStepCommittedToKafkaButNotYetMirroredIsNotRepeated() {
        long alice = api.newUser();
        List<Long> devices = new ArrayList<>();
        for (int sn = 1; sn <= 10; sn++) {
            devices.add(api.deviceId(online(alice, sn)));
        }
        // scheduled far ahead, so that the running expander leaves it alone while the crash is staged
        long task = accept(Audience.all(), Strategy.SVCPUSH_ONLY, UPS_THEN_CLOUD,
                Instant.now().getEpochSecond() + 3_600, null);
        try (ChannelTopics crashed = new ChannelTopics(writer, "test-crashed-" + task, Duration.ofSeconds(5), mapper)) {
            long floor = crashed.checkpointFloor(task);
            database.inTransaction(c -> {
                tasks.startExpanding(c, task, floor);
                return null;
            });
            List<PushBatch.Target> firstSeven = devices.subList(0, 7).stream()
                    .map(id -> new PushBatch.Target(id, alice, 0, null, null, null, null)).toList();
            PushBatch batch = new PushBatch(PushBatch.VERSION, task, api.appId, 0, "svcpush",
                    mapper.createObjectNode(), null, firstSeven, null);
            // the step reaches Kafka; the process dies before PostgreSQL hears of it
            crashed.commitStep(channelRecords.encode(batch), ExpansionCheckpoint.start(task).next(devices.get(6), 7, 1,
                    Map.of("svcpush", 7)));
        }
        database.inTransaction(c -> {
            try (var ps = c.prepareStatement("update push_tasks set show_begin_at = null where task_id = ?")) {
                ps.setLong(1, task);
                ps.executeUpdate();
            }
            return null;
        });
        expander.wake();

        TaskStats stats = awaitFinished(task);
        assertEquals(Map.of("svcpush", 10), targets(stats));
        assertEquals(10, stats.devicesExpanded());
        assertEquals(2, stats.batchesTotal());
        List<PushBatch> batches = batches(task, Channel.SVCPUSH, 2);
        assertEquals(new TreeSet<>(devices), deviceIds(batches));
        assertEquals(10, batches.stream().mapToInt(b -> b.targets().size()).sum(), "the first seven not again");
        assertEquals(Set.of(0, 1), batches.stream().map(PushBatch::batchNo).collect(Collectors.toSet()));
    }

    private String online(long user, int deviceSn) {
        String device = api.newDevice(user, deviceSn);
        api.setOnline(user, deviceSn);
        return device;
    }

    private Set<String> devicesReached(Audience audience) {
        long task = accept(audience, Strategy.SVCPUSH_ONLY, UPS_THEN_CLOUD, null, null);
        TaskStats stats = awaitFinished(task);
        int expected = targets(stats).getOrDefault("svcpush", 0);
        Set<Long> ids = deviceIds(expected == 0 ? List.of() : batches(task, Channel.SVCPUSH, stats.batchesTotal()));
        assertEquals(expected, ids.size());
        return database.read(c -> {
            Set<String> tokens = new HashSet<>();
            for (long id : ids) {
                try (var ps = c.prepareStatement("select push_token from push_devices where device_id = ?")) {
                    ps.setLong(1, id);
                    try (var rs = ps.executeQuery()) {
                        rs.next();
                        tokens.add(rs.getString(1));
                    }
                }
            }
            return tokens;
        });
    }

    private long accept(Audience audience, Strategy strategy, List<Channel> sequence, Long begin, Long end) {
        PushRequest request = new PushRequest(audience, null, strategy, sequence,
                mapper.createObjectNode().put("type", "text").put("title", "t").put("body", "b").put("badge", "+1"),
                begin, end, null);
        TaskState state = begin != null && begin > Instant.now().getEpochSecond()
                ? TaskState.SCHEDULED : TaskState.ACCEPTED;
        long id = taskService.store(api.appId, request, state, new TaskOrigin(TaskOrigin.API, 1)).taskId();
        expander.wake();
        return id;
    }

    private TaskStats stats(long task) {
        List<TaskStats> found = taskService.stats(api.appId, List.of(task));
        assertEquals(1, found.size());
        return found.get(0);
    }

    private TaskStats awaitFinished(long task) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            TaskStats stats = stats(task);
            if (stats.state() != TaskState.ACCEPTED && stats.state() != TaskState.SCHEDULED
                    && stats.state() != TaskState.EXPANDING) {
                return stats;
            }
            sleep();
        }
        throw new AssertionError("task " + task + " not expanded in time: " + stats(task).state());
    }

    private static Map<String, Integer> targets(TaskStats stats) {
        Map<String, Integer> targets = new HashMap<>();
        stats.counters().forEach((channel, counts) -> {
            if (counts[0] > 0) {
                targets.put(channel, counts[0]);
            }
        });
        return targets;
    }

    /** The task's records on the channel topic; waits for {@code expected} of them (or a few seconds for all). */
    private List<PushBatch> batches(long task, Channel channel, int expected) {
        String prefix = task + ":";
        Duration wait = expected == Integer.MAX_VALUE ? Duration.ofSeconds(3) : Duration.ofSeconds(10);
        List<ConsumerRecord<String, String>> records =
                TopicReader.await(channel.topic(), r -> r.key().startsWith(prefix), expected, wait);
        List<PushBatch> batches = new ArrayList<>();
        for (ConsumerRecord<String, String> record : records) {
            try {
                PushBatch batch = mapper.readValue(record.value(), PushBatch.class);
                assertEquals(batch.key(), record.key());
                assertEquals(channel.wireName(), batch.channel());
                assertEquals(api.appId, batch.appId());
                assertNotNull(batch.message());
                batches.add(batch);
            } catch (IOException e) {
                throw new AssertionError("unreadable record " + record.value(), e);
            }
        }
        if (expected != Integer.MAX_VALUE) {
            assertEquals(expected, batches.size(), "records of task " + task + " on " + channel.topic());
        }
        return batches;
    }

    private static PushBatch single(List<PushBatch> batches) {
        assertEquals(1, batches.size());
        assertEquals(1, batches.get(0).targets().size());
        return batches.get(0);
    }

    private static Set<Long> deviceIds(List<PushBatch> batches) {
        return batches.stream().flatMap(b -> b.targets().stream()).map(PushBatch.Target::deviceId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
