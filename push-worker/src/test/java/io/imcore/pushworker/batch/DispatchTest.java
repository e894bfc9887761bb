package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.LiveNotifyStandIn;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.WorkerFixture.Device;
import io.imcore.pushworker.WorkerFixture;
import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.TopicWriter;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worker against the real topics, the push schema and the provider simulators: what is sent, what is counted,
 * and that a batch counts once however often it is delivered.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
class DispatchTest {

    private static final List<Channel> OS_CHANNELS = List.of(Channel.APNS, Channel.FCM, Channel.HUAWEI,
            Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU);

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    private WorkerFixture fixture;
    private final Simulators simulators = ProvidersResource.simulators();

    @BeforeEach
    void app() throws Exception {
        fixture = new WorkerFixture(database, mapper).withCertificates();
    }

    private ProviderSimulator simulator(Channel channel) {
        return simulators.get(channel.wireName());
    }

    @Test
    void everyChannelSendsItsBatchAndTheLastBatchCompletesTheTask() throws Exception {
        long task = fixture.task(OS_CHANNELS.size());
        List<Device> all = new ArrayList<>();
        int batchNo = 0;
        for (Channel channel : OS_CHANNELS) {
            List<Device> devices = List.of(fixture.device(channel, "tok"), fixture.device(channel, "tok"),
                    fixture.device(channel, "tok"));
            all.addAll(devices);
            fixture.send(task, batchNo++, channel, fixture.message("hello", "+1"), null,
                    devices.stream().map(Device::target).toList());
        }
        fixture.awaitState(task, "done");
        for (Channel channel : OS_CHANNELS) {
            assertEquals(3, fixture.count(task, channel, "sent"), channel + " sent");
            assertEquals(0, fixture.count(task, channel, "failed"), channel + " failed");
        }
        for (Device device : all) {
            assertEquals(1, simulator(device.channel()).recorder().deliveriesTo(device.token()),
                    device.token() + " delivered once");
        }
        assertEquals(OS_CHANNELS.size(), fixture.intValue(
                "select batches_done from push_tasks where task_id = ?", task));
    }

    @Test
    void aRedeliveredBatchIsNeitherSentNorCountedAgain() throws Exception {
        long task = fixture.task(2);
        Device device = fixture.device(Channel.XIAOMI, "tok");
        List<PushBatch.Target> targets = List.of(device.target());
        fixture.send(task, 0, Channel.XIAOMI, fixture.message("once", "+1"), null, targets);
        fixture.send(task, 0, Channel.XIAOMI, fixture.message("once", "+1"), null, targets);
        WorkerFixture.awaitConsumed(Channel.XIAOMI.topic(), "push-worker.vendor_b");
        assertEquals(1, fixture.count(task, Channel.XIAOMI, "sent"));
        assertEquals(1, simulator(Channel.XIAOMI).recorder().deliveriesTo(device.token()));
        assertEquals(1, fixture.intValue("select batches_done from push_tasks where task_id = ?", task));
        assertEquals("dispatching", fixture.state(task), "one of two batches done");
    }

    @Test
    void aRedeliveredBatchDoesNotDoubleTheCountsPerReason() throws Exception {
        long task = fixture.task(3);
        List<PushBatch.Target> first = List.of(fixture.device(Channel.XIAOMI, Faults.INVALID_PREFIX).target(),
                fixture.device(Channel.XIAOMI, "tok").target());
        List<PushBatch.Target> second = List.of(fixture.device(Channel.XIAOMI, Faults.INVALID_PREFIX).target(),
                fixture.device(Channel.XIAOMI, "tok").target());
        fixture.send(task, 0, Channel.XIAOMI, fixture.message("reasons", "+1"), null, first);
        fixture.send(task, 1, Channel.XIAOMI, fixture.message("reasons", "+1"), null, second);
        fixture.send(task, 0, Channel.XIAOMI, fixture.message("reasons", "+1"), null, first);
        fixture.send(task, 1, Channel.XIAOMI, fixture.message("reasons", "+1"), null, second);
        WorkerFixture.awaitConsumed(Channel.XIAOMI.topic(), "push-worker.vendor_b");

        Map<String, Integer> failures = fixture.failures(task);
        // Xiaomi names the refused regids of a partly valid request in bad_regids (docs/channels/xiaomi.md)
        assertEquals(Map.of("vendor_b rejected bad_regids", 2), failures,
                "one per refused token of the two batches, not four");
        assertEquals(2, fixture.count(task, Channel.XIAOMI, "rejected"));
    }

    @Test
    void failuresOfOurOwnCarryTheirReason() throws Exception {
        long expired = fixture.task(1);
        fixture.send(expired, 0, Channel.OPPO, fixture.message("late", "+1"),
                Instant.now().minusSeconds(1).getEpochSecond(), List.of(fixture.device(Channel.OPPO, "tok").target(),
                        fixture.device(Channel.OPPO, "tok").target()));
        WorkerFixture bare = new WorkerFixture(database, mapper);
        long uncertified = bare.task(1);
        bare.send(uncertified, 0, Channel.VIVO, bare.message("no cert", "+1"), null,
                List.of(bare.device(Channel.VIVO, "tok").target()));
        fixture.awaitState(expired, "expired");
        bare.awaitState(uncertified, "done");

        assertEquals(Map.of("vendor_c failed show_end_time passed", 2), fixture.failures(expired));
        assertEquals(Map.of("vendor_d failed no certificate for environment 1", 1), bare.failures(uncertified));
    }

    @Test
    void aBatchLeftMidwayIsSentAgainAndCountedOnceWithoutRaisingTheBadgeTwice() throws Exception {
        long task = fixture.task(1);
        Device device = fixture.device(Channel.APNS, "tok");
        // a worker claimed the batch, raised the badge from 3 to 4 and died before counting it
        fixture.execute("insert into push_device_badges (device_id, badge) values (?, 4)", device.deviceId());
        fixture.execute("insert into push_worker_batches (task_id, batch_no, state) values (?, 0, 'sending')", task);
        fixture.send(task, 0, Channel.APNS, fixture.message("again", "+1"), null, List.of(device.target()));
        fixture.awaitState(task, "done");
        assertEquals(1, fixture.count(task, Channel.APNS, "sent"));
        assertEquals(4, badgeOf(device));
        String body = lastRequestTo(Channel.APNS, device.token());
        assertTrue(body.contains("\"badge\":4"), body);
    }

    @Test
    void aBatchHeldByAnotherLiveWorkerIsWaitedForAndNotSentTwice() throws Exception {
        long task = fixture.task(2);
        Device finishedByHolder = fixture.device(Channel.XIAOMI, "tok");
        Device holderDied = fixture.device(Channel.XIAOMI, "tok");
        // another replica claimed both batches and is sending them under a standing lease (a rebalance gave the
        // records to this worker too)
        fixture.execute("insert into push_worker_batches (task_id, batch_no, state, owner, lease_until)"
                + " values (?, 0, 'sending', 'other-replica', now() + interval '1 minute'),"
                + " (?, 1, 'sending', 'other-replica', now() + interval '1 minute')", task, task);
        String batchRow = "select 1 from push_worker_batches where task_id = ? and batch_no = ? for update";

        fixture.send(task, 0, Channel.XIAOMI, fixture.message("held", "+1"), null,
                List.of(finishedByHolder.target()));
        // this worker read the batch, left it to its holder and came back to claim it again
        fixture.awaitClaimOf(batchRow, task, 0);
        fixture.awaitClaimOf(batchRow, task, 0);
        assertEquals(0, deliveries(finishedByHolder), "not sent while the holder's lease stands");
        // the holder finishes batch 0
        fixture.execute("update push_worker_batches set state = 'done' where task_id = ? and batch_no = 0", task);
        fixture.execute("update push_tasks set batches_done = 1 where task_id = ?", task);

        fixture.send(task, 1, Channel.XIAOMI, fixture.message("held", "+1"), null, List.of(holderDied.target()));
        fixture.awaitClaimOf(batchRow, task, 1);
        fixture.awaitClaimOf(batchRow, task, 1);
        assertEquals(0, deliveries(holderDied), "not sent while the holder's lease stands");
        // batch 1's holder is gone: its lease lapses and this worker takes the batch over
        fixture.execute("update push_worker_batches set lease_until = now() where task_id = ? and batch_no = 1",
                task);
        fixture.awaitState(task, "done");
        WorkerFixture.awaitConsumed(Channel.XIAOMI.topic(), Channel.XIAOMI.workerGroup());
        assertEquals(0, deliveries(finishedByHolder), "the batch its holder finished is skipped");
        assertEquals(1, deliveries(holderDied));
        assertEquals(1, fixture.count(task, Channel.XIAOMI, "sent"));
    }

    private int deliveries(Device device) {
        return simulator(device.channel()).recorder().deliveriesTo(device.token());
    }

    @Test
    void badgesAreRaisedOrSetPerDeviceAndLeftAloneByPassThrough() throws Exception {
        Device device = fixture.device(Channel.APNS, "tok");
        long raise = fixture.task(1);
        fixture.send(raise, 0, Channel.APNS, fixture.message("raise", "+2"), null, List.of(device.target()));
        fixture.awaitState(raise, "done");
        assertEquals(2, badgeOf(device));
        long set = fixture.task(1);
        fixture.send(set, 0, Channel.APNS, fixture.message("set", "7"), null, List.of(device.target()));
        fixture.awaitState(set, "done");
        assertEquals(7, badgeOf(device));
        long passThrough = fixture.task(1);
        ObjectNode cmd = fixture.message("cmd", "+1").put("type", "cmd");
        fixture.send(passThrough, 0, Channel.APNS, cmd, null, List.of(device.target()));
        fixture.awaitState(passThrough, "done");
        assertEquals(7, badgeOf(device));
    }

    @Test
    void aDeviceDeletedAfterTheExpansionIsSentWithoutABadgeAndTheOthersAreRaised() throws Exception {
        Device kept = fixture.device(Channel.APNS, "tok");
        Device deleted = fixture.device(Channel.APNS, "tok");
        long task = fixture.task(1);
        fixture.execute("delete from push_devices where device_id = ?", deleted.deviceId());
        fixture.send(task, 0, Channel.APNS, fixture.message("raise", "+1"), null,
                List.of(kept.target(), deleted.target()));
        fixture.awaitState(task, "done");
        assertEquals(2, fixture.count(task, Channel.APNS, "sent"));
        assertEquals(1, badgeOf(kept));
        assertEquals(0, fixture.intValue("select count(*) from push_device_badges where device_id = ?",
                deleted.deviceId()));
        assertTrue(lastRequestTo(Channel.APNS, kept.token()).contains("\"badge\":1"));
        String withoutBadge = lastRequestTo(Channel.APNS, deleted.token());
        assertFalse(withoutBadge.contains("\"badge\""), withoutBadge);
    }

    private int badgeOf(Device device) {
        return fixture.intValue("select badge from push_device_badges where device_id = ?", device.deviceId());
    }

    @Test
    void afterShowEndTimeNothingIsSentAndTheTaskEndsExpired() throws Exception {
        long task = fixture.task(1);
        Device device = fixture.device(Channel.OPPO, "tok");
        fixture.send(task, 0, Channel.OPPO, fixture.message("late", "+1"),
                Instant.now().minusSeconds(1).getEpochSecond(), List.of(device.target()));
        fixture.awaitState(task, "expired");
        assertEquals(0, fixture.count(task, Channel.OPPO, "sent"));
        assertEquals(1, fixture.count(task, Channel.OPPO, "failed"));
        assertEquals(0, simulator(Channel.OPPO).recorder().deliveriesTo(device.token()));
    }

    @Test
    void withoutACertificateTheTargetsFail() throws Exception {
        WorkerFixture bare = new WorkerFixture(database, mapper);
        long task = bare.task(1);
        Device device = bare.device(Channel.VIVO, "tok");
        bare.send(task, 0, Channel.VIVO, bare.message("no cert", "+1"), null, List.of(device.target()));
        bare.awaitState(task, "done");
        assertEquals(1, bare.count(task, Channel.VIVO, "failed"));
        assertEquals(0, simulator(Channel.VIVO).recorder().deliveriesTo(device.token()));
    }

    @Test
    void aTokenTheProviderRefusesIsCountedRejectedAndUnbound() throws Exception {
        for (Channel channel : OS_CHANNELS) {
            long task = fixture.task(1);
            Device good = fixture.device(channel, "tok");
            Device invalid = fixture.device(channel, Faults.INVALID_PREFIX);
            fixture.send(task, 0, channel, fixture.message("mixed", "+1"), null,
                    List.of(good.target(), invalid.target()));
            fixture.awaitState(task, "done");
            assertEquals(1, fixture.count(task, channel, "sent"), channel + " sent");
            assertEquals(1, fixture.count(task, channel, "rejected"), channel + " rejected");
            assertEquals(0, fixture.intValue("select count(*) from push_device_tokens where device_id = ?",
                    invalid.deviceId()), channel + ": the refused token is unbound");
            assertEquals(1, fixture.intValue("select count(*) from push_device_tokens where device_id = ?",
                    good.deviceId()), channel + ": the good token stays");
        }
    }

    @Test
    void aTransientFailureIsRetriedUntilAccepted() throws Exception {
        long task = fixture.task(1);
        Device flaky = fixture.device(Channel.APNS, Faults.FLAKY_PREFIX);
        fixture.send(task, 0, Channel.APNS, fixture.message("flaky", "+1"), null, List.of(flaky.target()));
        fixture.awaitState(task, "done");
        assertEquals(1, fixture.count(task, Channel.APNS, "sent"));
        assertEquals(1, simulator(Channel.APNS).recorder().deliveriesTo(flaky.token()));
    }

    @Test
    void aProviderOutageExhaustsTheAttemptsAndCountsTheTargetsFailed() throws Exception {
        long task = fixture.task(1);
        Device device = fixture.device(Channel.MEIZU, "tok");
        simulator(Channel.MEIZU).faults().inject(Faults.Kind.TRANSIENT, 5);
        fixture.send(task, 0, Channel.MEIZU, fixture.message("outage", "+1"), null, List.of(device.target()));
        fixture.awaitState(task, "done");
        assertEquals(1, fixture.count(task, Channel.MEIZU, "failed"));
        assertEquals(0, fixture.count(task, Channel.MEIZU, "sent"));
    }

    @Test
    void aRetryAfterBeyondTheCapFailsTheTargetsAtOnce() throws Exception {
        long task = fixture.task(1);
        Device device = fixture.device(Channel.FCM, "tok");
        simulator(Channel.FCM).faults().inject(Faults.Kind.QUOTA_SPENT, 1);
        long started = System.nanoTime();
        fixture.send(task, 0, Channel.FCM, fixture.message("quota", "+1"), null, List.of(device.target()));
        fixture.awaitState(task, "done");
        assertEquals(1, fixture.count(task, Channel.FCM, "failed"));
        assertEquals(0, simulator(Channel.FCM).recorder().deliveriesTo(device.token()));
        assertTrue(System.nanoTime() - started < 30_000_000_000L, "not held for the hour the provider asked");
    }

    @Test
    void svcpushDeliversToOnlineDevicesAndSendsOfflineOnesOnTheirOsChannel() throws Exception {
        long task = fixture.task(1);
        Device online = fixture.device(Channel.SVCPUSH, null);
        Device offline = fixture.device(Channel.SVCPUSH, null);
        Device offlineNoFallback = fixture.device(Channel.SVCPUSH, null);
        Device route = fixture.device(Channel.XIAOMI, "fallback");
        LiveNotifyStandIn.online.add(online.userId());
        fixture.send(task, 0, Channel.SVCPUSH, fixture.message("live", "+1"), null, List.of(
                online.svcpushTarget(route), offline.svcpushTarget(route), offlineNoFallback.svcpushTarget(null)));
        fixture.awaitState(task, "done");
        assertEquals(1, fixture.count(task, Channel.SVCPUSH, "sent"));
        assertEquals(1, fixture.count(task, Channel.SVCPUSH, "fallback_out"));
        assertEquals(1, fixture.count(task, Channel.SVCPUSH, "failed"), "offline without a fallback route");
        assertEquals(1, fixture.count(task, Channel.XIAOMI, "fallback_in"));
        assertEquals(1, fixture.count(task, Channel.XIAOMI, "sent"));
        assertEquals(1, simulator(Channel.XIAOMI).recorder().deliveriesTo(route.token()));
        // the batch's row keeps its counts per channel and when they were counted (the report's timeline)
        String row = "from push_worker_batches where task_id = ? and batch_no = 0";
        assertEquals(1, fixture.intValue("select (counts->'svcpush'->>'sent')::int " + row, task));
        assertEquals(1, fixture.intValue("select (counts->'svcpush'->>'failed')::int " + row, task));
        assertEquals(1, fixture.intValue("select (counts->'vendor_b'->>'sent')::int " + row, task));
        assertEquals(1, fixture.intValue("select count(*) " + row + " and finished_at > now() - interval '1 minute'",
                task));
    }

    @Test
    void aDeviceAckCountsAsReceivedOnce() throws Exception {
        long task = fixture.task(1);
        Device device = fixture.device(Channel.SVCPUSH, null);
        String ack = mapper.writeValueAsString(io.imcore.pushcontract.PushReceipt.svcpush(task,
                fixture.appId, device.userId(), device.deviceSn()));
        // the task was sent to the device: its ledger row, as push-worker's claim writes it
        fixture.execute("insert into push_receipts (task_id, device_id, channel, received)"
                + " values (?, ?, 'svcpush', false)", task, device.deviceId());
        TopicWriter.send("push.receipts", String.valueOf(task), ack);
        TopicWriter.send("push.receipts", String.valueOf(task), ack);
        WorkerFixture.awaitConsumed("push.receipts", "push-worker.receipts");
        assertEquals(1, fixture.count(task, Channel.SVCPUSH, "received"));
        assertEquals(1, fixture.intValue("select count(*) from push_receipts where task_id = ?"
                + " and received_at > now() - interval '1 minute'", task), "the receipt's time is kept");
    }

    /** The body of the last request naming the token whole (tok-ios-12 must not match a request to tok-ios-123). */
    private String lastRequestTo(Channel channel, String token) {
        Pattern whole = Pattern.compile("(?<![A-Za-z0-9_-])" + Pattern.quote(token) + "(?![A-Za-z0-9_-])");
        return simulator(channel).recorder().requests().stream()
                .filter(r -> whole.matcher(r.path()).find() || whole.matcher(r.body()).find())
                .reduce((first, second) -> second)
                .map(io.imcore.simulators.Recorder.Request::body)
                .orElseThrow(() -> new AssertionError("no request to " + token));
    }
}
