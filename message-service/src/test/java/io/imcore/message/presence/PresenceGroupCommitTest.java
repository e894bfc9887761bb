package io.imcore.message.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.imcore.common.events.Outbox;
import io.imcore.message.AppWithUsers;
import io.imcore.message.MessageConfig;
import io.imcore.message.presence.PresenceStore.DeviceConnection;
import io.imcore.testing.InfrastructureResource;
import io.imcore.testing.TopicReader;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Group commit of connects and disconnects: many changes per transaction, each answered as if it ran alone. */
@QuarkusTest
@QuarkusTestResource(InfrastructureResource.class)
class PresenceGroupCommitTest extends AppWithUsers {

    private static final int DEVICES = 200;

    @Inject
    PresenceStore presence;

    @Inject
    Outbox outbox;

    @Inject
    MessageConfig config;

    /** A replica of its own (the configured id is empty: a random one), its committer started. */
    private PresenceService replica(SimpleMeterRegistry registry) {
        PresenceService replica = new PresenceService(database, presence, outbox, config, registry);
        replica.start(null);
        return replica;
    }

    @Test
    void aBurstOfConnectsCommitsInFewTransactionsAndALaterConnectOfADeviceWins() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PresenceService replica = replica(registry);
        try {
            List<DeviceConnection> first = new ArrayList<>();
            List<CompletableFuture<Long>> connected = new ArrayList<>();
            for (int sn = 0; sn < DEVICES; sn++) {
                DeviceConnection device = new DeviceConnection(api.appId, bob, sn, "first-" + sn);
                first.add(device);
                connected.add(replica.connected(api.appId, bob, sn, device.connectionId()));
            }
            // device 0 connects again in the same burst: one statement cannot take it twice, the later one wins
            CompletableFuture<Long> reconnected = replica.connected(api.appId, bob, 0, "second-0");
            CompletableFuture.allOf(connected.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            long secondSeq = reconnected.get(20, TimeUnit.SECONDS);

            Map<Integer, String> rows = rows(replica, bob);
            assertEquals(DEVICES, rows.size(), "one row per device");
            assertEquals("second-0", rows.get(0), "the later connect of device 0 replaced the first");
            assertEquals("first-7", rows.get(7));
            assertTrue(secondSeq >= connected.get(0).get(), "the later connect has the later presence sequence");
            DistributionSummary batches = registry.get("imcore.presence.commit.batch").summary();
            assertEquals(DEVICES + 1, (long) batches.totalAmount(), "every change is counted once");
            assertTrue(batches.count() < DEVICES / 4,
                    "the burst was committed in groups, not one transaction each: " + batches.count());

            // the replaced connection's close removes nothing; the others' closes remove their rows
            List<CompletableFuture<Long>> closed = new ArrayList<>();
            for (int sn = 0; sn < DEVICES; sn++) {
                closed.add(replica.disconnected(api.appId, bob, sn, first.get(sn).connectionId(),
                        connected.get(sn).get()));
            }
            CompletableFuture.allOf(closed.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
            assertEquals(Map.of(0, "second-0"), rows(replica, bob), "only device 0's newer connection is left");
            replica.disconnected(api.appId, bob, 0, "second-0", secondSeq).get(20, TimeUnit.SECONDS);
            assertEquals(Map.of(), rows(replica, bob));

            String key = api.appId + ":" + bob + ":0";
            var events = TopicReader.await("presence.events", r -> key.equals(r.key()), 3, Duration.ofSeconds(20));
            assertEquals(3, events.size(), "online, online again, offline of the second connection only");
            assertTrue(events.get(0).value().contains("\"device.online\""), events.get(0).value());
            assertTrue(events.get(1).value().contains("\"device.online\""), events.get(1).value());
            assertTrue(events.get(2).value().contains("\"device.offline\""), events.get(2).value());
        } finally {
            replica.stop(null);
        }
    }

    @Test
    void aChangeAfterTheStopIsStillCommitted() throws Exception {
        PresenceService replica = replica(new SimpleMeterRegistry());
        replica.stop(null);
        long seq = replica.connected(api.appId, carol, 1, "after-stop").get(20, TimeUnit.SECONDS);
        assertTrue(seq > 0);
        assertEquals(Map.of(1, "after-stop"), rows(replica, carol));
        replica.disconnected(api.appId, carol, 1, "after-stop", seq).get(20, TimeUnit.SECONDS);
        assertEquals(Map.of(), rows(replica, carol));
    }

    /** The user's presence rows of the replica: device_sn to connection id. */
    private Map<Integer, String> rows(PresenceService replica, long user) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select device_sn, connection_id from presence"
                    + " where app_id = ? and user_id = ? and replica_id = ?")) {
                ps.setString(1, api.appId);
                ps.setLong(2, user);
                ps.setString(3, replica.replicaId());
                Map<Integer, String> rows = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.put(rs.getInt(1), rs.getString(2));
                    }
                }
                return rows;
            }
        });
    }
}
