package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.WorkerFixture.Device;
import io.imcore.pushworker.WorkerFixture;
import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.Eventually;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every channel's batches run on one small pool of sender threads: channels that have to wait (here for their app's
 * rate limit) must leave the threads to the others rather than sleep on them.
 */
@QuarkusTest
@TestProfile(SharedSendersTest.TwoSendersTwoPacedChannels.class)
class SharedSendersTest {

    /** Two sender threads, two batches in flight per channel, OPPO and Meizu paced to 0.1/s per app. */
    public static class TwoSendersTwoPacedChannels implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("im.push.worker.senders", "2", "im.push.worker.batches-in-flight", "2",
                    "im.push.worker.channel.vendor_c.app-rate", "0.1",
                    "im.push.worker.channel.vendor_e.app-rate", "0.1");
        }
    }

    @Inject
    Database database;

    @Inject
    ObjectMapper mapper;

    private final Simulators simulators = ProvidersResource.simulators();

    @Test
    void channelsWaitingForTheirRateLimitLeaveTheSenderThreadsToTheOthers() throws Exception {
        WorkerFixture fixture = new WorkerFixture(database, mapper).withCertificates();
        // each bucket holds 0.1 deliveries: either batch waits 9 s for its one delivery, one per consumer, so both
        // wait at once (two batches of one channel might come in two polls, the second after the first is done)
        long paced = fixture.task(2);
        Device first = fixture.device(Channel.OPPO, "tok");
        Device second = fixture.device(Channel.MEIZU, "tok");
        fixture.send(paced, 0, Channel.OPPO, fixture.message("paced", "+1"), null, List.of(first.target()));
        fixture.send(paced, 1, Channel.MEIZU, fixture.message("paced", "+1"), null, List.of(second.target()));
        Eventually.until(Duration.ofSeconds(30), "both paced batches claimed", () -> fixture.intValue(
                "select count(*) from push_worker_batches where task_id = ? and state = 'sending'", paced) == 2);

        long other = fixture.task(1);
        Device device = fixture.device(Channel.VIVO, "tok");
        fixture.send(other, 0, Channel.VIVO, fixture.message("not paced", "+1"), null, List.of(device.target()));
        fixture.awaitState(other, "done");
        assertEquals(1, simulators.get("vendor_d").recorder().deliveriesTo(device.token()));
        assertEquals(0, simulators.get("vendor_c").recorder().deliveriesTo(first.token())
                + simulators.get("vendor_e").recorder().deliveriesTo(second.token()),
                "vivo was sent while both paced batches still waited for their rate limit");

        fixture.awaitState(paced, "done");
        assertEquals(1, fixture.count(paced, Channel.OPPO, "sent"));
        assertEquals(1, fixture.count(paced, Channel.MEIZU, "sent"));
    }
}
