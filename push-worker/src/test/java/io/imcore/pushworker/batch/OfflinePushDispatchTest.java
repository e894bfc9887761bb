package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.WorkerFixture.Device;
import io.imcore.pushworker.WorkerFixture;
import io.imcore.simulators.Faults;
import io.imcore.simulators.ProviderSimulator;
import io.imcore.simulators.Recorder;
import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.Eventually;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Offline push records (docs/offline-push.md) through the worker against the real topics, the push schema and the
 * provider simulators: the devices' trace rows are the claim, so a device is sent a message once, an older message
 * of a conversation queued behind a newer one is superseded, another worker's standing claim is waited for, and the
 * outcomes land in the trace and in offline_push_daily.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
class OfflinePushDispatchTest {

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    private WorkerFixture fixture;
    private final Simulators simulators = ProvidersResource.simulators();

    @BeforeEach
    void app() {
        fixture = new WorkerFixture(database, mapper).withCertificates();
    }

    private ProviderSimulator simulator(Channel channel) {
        return simulators.get(channel.wireName());
    }

    private int deliveries(Device device) {
        return simulator(device.channel()).recorder().deliveriesTo(device.token());
    }

    /** The chat message's notification as push-service's planner writes it (the badge: the unread count). */
    private ObjectNode chatMessage(long msgId, String conversation, String badge) {
        ObjectNode message = fixture.message("message " + msgId, badge);
        ObjectNode ext = message.putObject("ext");
        ext.put("conversation_type", "direct");
        ext.put("conversation_id", conversation.substring(2));
        ext.put("msg_id", Long.toString(msgId));
        message.put("collapse_key", "im-" + conversation);
        return message;
    }

    @Test
    void eachSentDeviceIsTimedFromItsMessagesStoreInBucketsOfSeconds() throws Exception {
        Device device = fixture.device(Channel.MEIZU, "tok");
        long msgId = 40;
        Timer delay = registry.get("imcore.offline_push.delay").tag("channel", Channel.MEIZU.wireName()).timer();
        long before = delay.count();
        fixture.traceRow(msgId, device, "u:5", "queued");
        fixture.sendOffline(msgId, "u:5", Channel.MEIZU, chatMessage(msgId, "u:5", "1"), List.of(device.target()));
        fixture.awaitTrace(msgId, device, "sent");
        Eventually.until(Duration.ofSeconds(10), "the sent device timed", () -> delay.count() == before + 1);
        // a cold stack takes tens of seconds: the buckets reach minutes, not common's request buckets (5 s)
        double[] bounds = Arrays.stream(delay.takeSnapshot().histogramCounts())
                .mapToDouble(b -> b.bucket(TimeUnit.SECONDS)).toArray();
        assertTrue(Arrays.stream(bounds).anyMatch(b -> b == 30.0) && Arrays.stream(bounds).anyMatch(b -> b == 120.0),
                "buckets " + Arrays.toString(bounds));
    }

    @Test
    void queuedDevicesAreSentOnceAndARedeliveredRecordNeitherSendsNorCountsAgain() throws Exception {
        Device first = fixture.device(Channel.OPPO, "tok");
        Device second = fixture.device(Channel.OPPO, "tok");
        long msgId = 1;
        fixture.traceRow(msgId, first, "u:42", "queued");
        fixture.traceRow(msgId, second, "u:42", "queued");
        fixture.sendOffline(msgId, "u:42", Channel.OPPO, chatMessage(msgId, "u:42", "3"),
                List.of(first.target(), second.target()));
        fixture.awaitTrace(msgId, first, "sent");
        fixture.awaitTrace(msgId, second, "sent");
        for (Device device : List.of(first, second)) {
            assertEquals(1, deliveries(device), device.token() + " sent once");
            assertNotNull(fixture.trace(msgId, device, "sent_at"), "sent_at of " + device.token());
            assertNull(fixture.trace(msgId, device, "lease_until"), "the claim's lease ends with the outcome");
        }
        assertEquals(2, fixture.daily(Channel.OPPO, "sent"));
        assertEquals(0, fixture.daily(Channel.OPPO, "failed"));
        assertEquals(0, fixture.intValue("select count(*) from push_tasks where app_id = ?", fixture.appId),
                "no task for an offline push");

        // Kafka delivers the record again (or push-service writes it again after a crash)
        fixture.sendOffline(msgId, "u:42", Channel.OPPO, chatMessage(msgId, "u:42", "3"),
                List.of(first.target(), second.target()));
        WorkerFixture.awaitConsumed(Channel.OPPO.topic(), "push-worker.vendor_c");
        assertEquals(1, deliveries(first), "not sent again");
        assertEquals(1, deliveries(second), "not sent again");
        assertEquals(2, fixture.daily(Channel.OPPO, "sent"), "not counted again");
        assertEquals("sent", fixture.trace(msgId, first, "state"));
    }

    @Test
    void anOlderMessageQueuedBehindANewerOneOfTheConversationIsSupersededAndOnlyTheNewerSent() throws Exception {
        Device device = fixture.device(Channel.XIAOMI, "tok");
        Device otherConversation = fixture.device(Channel.XIAOMI, "tok");
        fixture.traceRow(10, device, "u:7", "queued");
        fixture.traceRow(11, device, "u:7", "queued");
        // a newer message of another conversation supersedes nothing
        fixture.traceRow(10, otherConversation, "u:7", "queued");
        fixture.traceRow(11, otherConversation, "u:8", "queued");

        fixture.sendOffline(10, "u:7", Channel.XIAOMI, chatMessage(10, "u:7", "1"),
                List.of(device.target(), otherConversation.target()));
        fixture.awaitTrace(10, device, "superseded");
        fixture.awaitTrace(10, otherConversation, "sent");
        assertEquals(0, deliveries(device), "the older message is not sent");
        assertNotNull(fixture.trace(10, device, "reason"));
        assertNull(fixture.trace(10, device, "sent_at"));

        fixture.sendOffline(11, "u:7", Channel.XIAOMI, chatMessage(11, "u:7", "2"), List.of(device.target()));
        fixture.awaitTrace(11, device, "sent");
        assertEquals(1, deliveries(device), "only the newer message");
        assertTrue(lastRequestTo(Channel.XIAOMI, device.token()).contains("message+11")
                || lastRequestTo(Channel.XIAOMI, device.token()).contains("message 11"),
                lastRequestTo(Channel.XIAOMI, device.token()));
        assertEquals(2, fixture.daily(Channel.XIAOMI, "sent"), "message 11 to one device, 10 to the other");
        assertEquals(0, fixture.daily(Channel.XIAOMI, "failed"), "a superseded message is not counted");
    }

    @Test
    void aDeviceAnotherWorkerHoldsIsWaitedForAndTakenOverOnlyWhenItsLeaseLapses() throws Exception {
        Device finishedByHolder = fixture.device(Channel.XIAOMI, "tok");
        Device holderDied = fixture.device(Channel.XIAOMI, "tok");
        fixture.traceRow(20, finishedByHolder, "u:1", "queued");
        fixture.traceRow(21, holderDied, "u:2", "queued");
        // another replica claimed both and is sending them (a rebalance gave the records to this worker too)
        fixture.execute("update offline_push_trace set state = 'sending', owner = 'other-replica', lease_until ="
                + " now() + interval '1 minute' where app_id = ? and msg_id in (20, 21)", fixture.appId);
        String traceRow = "select 1 from offline_push_trace where app_id = ? and msg_id = ? and device_id = ?"
                + " for update";

        fixture.sendOffline(20, "u:1", Channel.XIAOMI, chatMessage(20, "u:1", "1"),
                List.of(finishedByHolder.target()));
        // this worker read the row, left it to its holder and came back to claim it again
        fixture.awaitClaimOf(traceRow, fixture.appId, 20, finishedByHolder.deviceId());
        fixture.awaitClaimOf(traceRow, fixture.appId, 20, finishedByHolder.deviceId());
        assertEquals(0, deliveries(finishedByHolder), "not sent while the holder's lease stands");
        // the holder of message 20 finishes it
        fixture.execute("update offline_push_trace set state = 'sent', sent_at = now(), lease_until = null"
                + " where app_id = ? and msg_id = 20", fixture.appId);

        fixture.sendOffline(21, "u:2", Channel.XIAOMI, chatMessage(21, "u:2", "1"), List.of(holderDied.target()));
        fixture.awaitClaimOf(traceRow, fixture.appId, 21, holderDied.deviceId());
        fixture.awaitClaimOf(traceRow, fixture.appId, 21, holderDied.deviceId());
        assertEquals(0, deliveries(holderDied), "not sent while the holder's lease stands");
        assertEquals("other-replica", fixture.trace(21, holderDied, "owner"));
        // message 21's holder is gone: its lease lapses and this worker takes it over
        fixture.execute("update offline_push_trace set lease_until = now() where app_id = ? and msg_id = 21",
                fixture.appId);
        fixture.awaitTrace(21, holderDied, "sent");
        assertNotEquals("other-replica", fixture.trace(21, holderDied, "owner"));
        assertEquals(1, deliveries(holderDied));
        WorkerFixture.awaitConsumed(Channel.XIAOMI.topic(), Channel.XIAOMI.workerGroup());
        assertEquals(0, deliveries(finishedByHolder), "the row its holder finished is not sent again");
        assertEquals(1, fixture.daily(Channel.XIAOMI, "sent"), "only the taken-over device counts here");
    }

    @Test
    void aRecordPartlyHeldByADeadWorkerSendsItsOwnDevicesAndTakesTheOthersOverAfterTheLease() throws Exception {
        Device queued = fixture.device(Channel.XIAOMI, "tok");
        Device heldByDead = fixture.device(Channel.XIAOMI, "tok");
        fixture.traceRow(30, queued, "g:9", "queued");
        fixture.traceRow(30, heldByDead, "g:9", "queued");
        fixture.execute("update offline_push_trace set state = 'sending', owner = 'dead-replica', lease_until ="
                + " now() + interval '2 seconds' where app_id = ? and msg_id = 30 and device_id = ?", fixture.appId,
                heldByDead.deviceId());
        fixture.sendOffline(30, "g:9", Channel.XIAOMI, chatMessage(30, "g:9", "1"),
                List.of(queued.target(), heldByDead.target()));
        fixture.awaitTrace(30, queued, "sent");
        assertEquals(1, deliveries(queued));
        // the record is not done with while another worker holds a device of it: that one is taken over
        fixture.awaitTrace(30, heldByDead, "sent");
        assertEquals(1, deliveries(heldByDead));
        assertEquals(1, deliveries(queued), "the device sent first is not sent again");
        assertEquals(2, fixture.daily(Channel.XIAOMI, "sent"));
    }

    @Test
    void aTokenTheProviderRefusesEndsRejectedWithTheReasonIsUnboundAndCounted() throws Exception {
        for (Channel channel : List.of(Channel.XIAOMI, Channel.APNS)) {
            Device good = fixture.device(channel, "tok");
            Device invalid = fixture.device(channel, Faults.INVALID_PREFIX);
            long msgId = channel == Channel.APNS ? 31 : 30;
            fixture.traceRow(msgId, good, "u:3", "queued");
            fixture.traceRow(msgId, invalid, "u:3", "queued");
            fixture.sendOffline(msgId, "u:3", channel, chatMessage(msgId, "u:3", "1"),
                    List.of(good.target(), invalid.target()));
            fixture.awaitTrace(msgId, invalid, "rejected");
            fixture.awaitTrace(msgId, good, "sent");
            String reason = fixture.trace(msgId, invalid, "reason");
            assertNotNull(reason, channel + ": the provider's reason");
            assertTrue(!reason.isBlank() && !reason.equals("no answer recorded") && !reason.equals("unknown"),
                    channel + " reason " + reason);
            if (channel == Channel.XIAOMI) {
                // Xiaomi names the refused regids of a partly valid request in bad_regids (docs/channels/xiaomi.md)
                assertEquals("bad_regids", reason);
            }
            assertNull(fixture.trace(msgId, invalid, "sent_at"));
            assertEquals(0, fixture.intValue("select count(*) from push_device_tokens where device_id = ?",
                    invalid.deviceId()), channel + ": the refused token is unbound");
            assertEquals(1, fixture.intValue("select count(*) from push_device_tokens where device_id = ?",
                    good.deviceId()), channel + ": the good token stays");
            assertEquals(1, fixture.daily(channel, "rejected"), channel + " rejected");
            assertEquals(1, fixture.daily(channel, "sent"), channel + " sent");
            assertEquals(0, fixture.daily(channel, "failed"), channel + " failed");
            // the apps' webhooks hear of the refused device only, in the finish's transaction (push.events)
            assertEquals(List.of(invalid.userId() + ":" + invalid.deviceSn() + ":rejected:" + reason),
                    fixture.strings("select (p->'data'->>'user_id') || ':' || (p->'data'->>'device_sn') || ':'"
                    + " || (p->'data'->>'outcome') || ':' || (p->'data'->>'reason') from (select payload::jsonb as p"
                    + " from outbox where topic = 'push.events' order by id) o where p->>'type' = 'offline_push.failed'"
                    + " and p->>'app_id' = ? and (p->'data'->>'msg_id')::bigint = ?", fixture.appId, msgId),
                    channel + ": offline_push.failed");
        }
    }

    @Test
    void eachDevicesUnreadCountReachesTheBadgeChannelsAsSet() throws Exception {
        Device ios = fixture.device(Channel.APNS, "tok");
        Device otherIos = fixture.device(Channel.APNS, "tok");
        Device cloud = fixture.device(Channel.FCM, "tok");
        // a badge counter from earlier task pushes is neither raised nor read: the unread count is the badge
        fixture.execute("insert into push_device_badges (device_id, badge) values (?, 40)", ios.deviceId());
        for (Device device : List.of(ios, otherIos, cloud)) {
            fixture.traceRow(40, device, "g:5", "queued");
        }
        // one record for two members whose notification reads the same: each with their own unread count
        ObjectNode toIos = chatMessage(40, "g:5", "1");
        toIos.putObject("badges").put(Long.toString(ios.deviceId()), 7).put(Long.toString(otherIos.deviceId()), 12);
        fixture.sendOffline(40, "g:5", Channel.APNS, toIos, List.of(ios.target(), otherIos.target()));
        ObjectNode toCloud = chatMessage(40, "g:5", "1");
        toCloud.putObject("badges").put(Long.toString(cloud.deviceId()), 9);
        fixture.sendOffline(40, "g:5", Channel.FCM, toCloud, List.of(cloud.target()));
        for (Device device : List.of(ios, otherIos, cloud)) {
            fixture.awaitTrace(40, device, "sent");
        }
        String apns = lastRequestTo(Channel.APNS, ios.token());
        assertTrue(apns.contains("\"badge\":7"), apns);
        String otherApns = lastRequestTo(Channel.APNS, otherIos.token());
        assertTrue(otherApns.contains("\"badge\":12"), otherApns);
        String fcm = lastRequestTo(Channel.FCM, cloud.token());
        assertTrue(fcm.contains("\"notification_count\":9"), fcm);
        assertEquals(40, fixture.intValue("select badge from push_device_badges where device_id = ?",
                ios.deviceId()), "the task badge counter is left alone");
    }

    /** The body of the last request naming the token whole (tok-ios-12 must not match a request to tok-ios-123). */
    private String lastRequestTo(Channel channel, String token) {
        Pattern whole = Pattern.compile("(?<![A-Za-z0-9_-])" + Pattern.quote(token) + "(?![A-Za-z0-9_-])");
        return simulator(channel).recorder().requests().stream()
                .filter(r -> whole.matcher(r.path()).find() || whole.matcher(r.body()).find())
                .reduce((first, second) -> second)
                .map(Recorder.Request::body)
                .orElseThrow(() -> new AssertionError("no request to " + token));
    }
}
