package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.WorkerFixture;
import io.imcore.pushworker.WorkerFixture.Device;
import io.imcore.simulators.registry.Simulators;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.imcore.testing.Eventually;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The offline push records of a poll are claimed and finished together (docs/push-worker.md "Offline push records"):
 * a few transactions for the poll, not one claim and one finish per record, and still every device sent and counted
 * once, an older message of a conversation queued with a newer one superseded.
 */
@QuarkusTest
@QuarkusTestResource(ProvidersResource.class)
@TestProfile(OfflinePushBatchingTest.FiftyRecordsAPoll.class)
class OfflinePushBatchingTest {

    /** A poll takes up to 50 records, as many as the test writes at once, and sends them all at once. */
    public static class FiftyRecordsAPoll implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.push.worker.batches-in-flight", "50", "im.push.worker.senders", "64");
        }
    }

    private static final Channel CHANNEL = Channel.XIAOMI;
    private static final int SINGLE_MESSAGES = 40;
    private static final int CONVERSATIONS_WITH_TWO = 5;
    private static final int RECORDS = SINGLE_MESSAGES + 2 * CONVERSATIONS_WITH_TWO;

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    private final Simulators simulators = ProvidersResource.simulators();

    private ObjectNode chatMessage(WorkerFixture fixture, long msgId, String conversation) {
        ObjectNode message = fixture.message("message " + msgId, "1");
        ObjectNode ext = message.putObject("ext");
        ext.put("conversation_type", "direct");
        ext.put("conversation_id", conversation.substring(2));
        ext.put("msg_id", Long.toString(msgId));
        message.put("collapse_key", "im-" + conversation);
        return message;
    }

    private PushBatch record(WorkerFixture fixture, long msgId, String conversation, Device device) {
        fixture.traceRow(msgId, device, conversation, "queued");
        return fixture.offlineRecord(msgId, conversation, CHANNEL, chatMessage(fixture, msgId, conversation),
                List.of(device.target()));
    }

    private DistributionSummary commits(String stage) {
        return registry.get("imcore.push.worker.offline." + stage + ".batch").summary();
    }

    @Test
    void aPollsRecordsShareTheirClaimAndFinishCommitsAndEachDeviceIsSentAndCountedOnce() throws Exception {
        WorkerFixture fixture = new WorkerFixture(database, mapper).withCertificates();
        List<PushBatch> records = new ArrayList<>();
        List<Device> singles = new ArrayList<>();
        for (int i = 0; i < SINGLE_MESSAGES; i++) {
            Device device = fixture.device(CHANNEL, "tok");
            singles.add(device);
            records.add(record(fixture, 100 + i, "u:" + (500 + i), device));
        }
        // two messages of one conversation to one device: only the newer is sent, whichever is claimed first
        List<Device> twice = new ArrayList<>();
        for (int i = 0; i < CONVERSATIONS_WITH_TWO; i++) {
            Device device = fixture.device(CHANNEL, "tok");
            twice.add(device);
            records.add(record(fixture, 200 + 2 * i, "u:" + (600 + i), device));
            records.add(record(fixture, 201 + 2 * i, "u:" + (600 + i), device));
        }
        double claimCommits = commits("claim").count();
        double claimedRecords = commits("claim").totalAmount();
        double finishedRecords = commits("finish").totalAmount();

        fixture.sendTogether(records);
        for (Device device : singles) {
            fixture.awaitTrace(100 + singles.indexOf(device), device, "sent");
        }
        for (int i = 0; i < CONVERSATIONS_WITH_TWO; i++) {
            fixture.awaitTrace(201 + 2 * i, twice.get(i), "sent");
            fixture.awaitTrace(200 + 2 * i, twice.get(i), "superseded");
        }
        int devices = SINGLE_MESSAGES + CONVERSATIONS_WITH_TWO;
        // every record claimed (the superseded ones too) and the sent ones finished: nothing more is to come (the
        // transaction's marker keeps the group's offset one short of the topic's end, so that is not awaited)
        Eventually.until(Duration.ofSeconds(30), "every record claimed and finished", () ->
                commits("claim").totalAmount() - claimedRecords >= RECORDS
                        && commits("finish").totalAmount() - finishedRecords >= devices);

        for (Device device : singles) {
            assertEquals(1, simulators.get(CHANNEL.wireName()).recorder().deliveriesTo(device.token()),
                    device.token() + " sent once");
        }
        for (Device device : twice) {
            assertEquals(1, simulators.get(CHANNEL.wireName()).recorder().deliveriesTo(device.token()),
                    device.token() + ": only the newer message");
        }
        assertEquals(devices, fixture.daily(CHANNEL, "sent"), "each device counted once");
        assertEquals(0, fixture.daily(CHANNEL, "failed"));
        assertEquals(devices, fixture.intValue("select count(*) from offline_push_trace where app_id = ?"
                + " and state = 'sent' and sent_at is not null and lease_until is null", fixture.appId));
        assertEquals(CONVERSATIONS_WITH_TWO, fixture.intValue("select count(*) from offline_push_trace"
                + " where app_id = ? and state = 'superseded'", fixture.appId));

        // the poll's records arrive together: their claims share far fewer commits than records. The finishes come
        // as the provider answers, spread in time: 8 to 16 commits on an idle machine, up to 39 of 45 on a busy one,
        // so only their total is checked here
        double claims = commits("claim").count() - claimCommits;
        assertEquals(RECORDS, commits("claim").totalAmount() - claimedRecords, "records claimed");
        assertEquals(devices, commits("finish").totalAmount() - finishedRecords, "records finished");
        assertTrue(claims <= RECORDS / 5.0, RECORDS + " records claimed in " + claims + " commits");
    }
}
