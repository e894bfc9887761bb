package io.imcore.pushworker.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.ProvidersResource;
import io.imcore.pushworker.TestCertificates;
import io.imcore.simulators.ProviderSimulator;
import io.imcore.simulators.registry.Simulators;
import io.imcore.testing.Eventually;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TopicWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged push-worker killed with SIGKILL in the middle of a push over all seven OS channels, the rest taken
 * over by two new replicas (a rebalance among them too): every counter ends equal to the targets, and equal to the
 * number of distinct devices each provider simulator accepted. Devices a dead worker had already sent to in its
 * unfinished batches may reach the provider twice (the provider call and our commit cannot be one transaction);
 * they are counted once, and the test reports how many there were.
 */
class WorkerCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private static final List<Channel> CHANNELS = List.of(Channel.APNS, Channel.FCM, Channel.HUAWEI,
            Channel.XIAOMI, Channel.OPPO, Channel.VIVO, Channel.MEIZU);
    private static final int DEVICES_PER_CHANNEL = 3_000;
    private static final int BATCH = 500;
    private static final int BATCHES = CHANNELS.size() * DEVICES_PER_CHANNEL / BATCH;
    private static final String APP = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private static Simulators simulators;
    private static Map<String, String> workerConfig;

    @BeforeAll
    static void providersAndSchema() throws Exception {
        Path dir = Files.createTempDirectory("push-simulators");
        simulators = Simulators.start(dir, 0);
        workerConfig = new HashMap<>(ProvidersResource.channelConfig(simulators, dir));
        workerConfig.put("im.push.certificate-key", TestCertificates.KEY);
        workerConfig.put("im.push.worker.batches-in-flight", "2");
        // the killed worker's claims lapse soon, so the second takes its batches over without a long wait
        workerConfig.put("im.push.worker.claim-lease", "3s");
        workerConfig.put("im.push.worker.channels", "ios,cloud,vendor_a,vendor_b,vendor_c,vendor_d,vendor_e");
        Flyway.configure().dataSource(SharedInfrastructure.get().jdbcUrl(), "postgres", "postgres")
                // push-service's schema as it migrates it: the outbox its triggers write (push.events) included
                .locations("filesystem:../push-service/src/main/resources/db/migration", "classpath:db/outbox").load()
                .migrate();
    }

    @AfterAll
    static void stopProviders() throws Exception {
        simulators.close();
    }

    @Test
    void aWorkerKilledMidPushLosesNothingAndCountsNothingTwice() throws Exception {
        ServiceProcess first = ServiceProcess.start("worker-one", workerConfig);
        // slow providers, so that the kill lands while batches are in flight
        simulators.byChannel().values().forEach(s -> s.setLatencyMillis(150));
        long task;
        Map<Channel, List<PushBatch.Target>> targets;
        try (Connection c = database()) {
            TestCertificates.insertAll(c, APP);
            task = task(c);
            targets = devices(c);
        }
        int batchNo = 0;
        ObjectNode message = JSON.createObjectNode().put("type", "text").put("title", "crash").put("body", "test")
                .put("badge", "+1");
        message.putObject("channels");
        for (Channel channel : CHANNELS) {
            List<PushBatch.Target> all = targets.get(channel);
            for (int from = 0; from < all.size(); from += BATCH) {
                PushBatch batch = new PushBatch(PushBatch.VERSION, task, APP, batchNo++, channel.wireName(), message,
                        null, all.subList(from, from + BATCH), null);
                TopicWriter.send(channel.topic(), batch.key(), JSON.writeValueAsString(batch));
            }
        }

        Eventually.until(Duration.ofSeconds(60), "a few batches done", () -> batchesDone(task) >= BATCHES / 5);
        first.kill();
        int doneAtKill = batchesDone(task);
        int claimedAtKill = intValue("select count(*) from push_worker_batches where task_id = ? and state = 'sending'",
                task);
        ServiceProcess second = ServiceProcess.start("worker-two", workerConfig);
        ServiceProcess third = ServiceProcess.start("worker-three", workerConfig);
        try {
            Eventually.until(Duration.ofSeconds(120), "task done", () -> "done".equals(state(task)));
            assertTrue(doneAtKill < BATCHES, "the kill came before the end: " + doneAtKill);
            assertTrue(claimedAtKill > 0, "the kill left batches mid-way");
            assertEquals(BATCHES, batchesDone(task));
            int duplicates = 0;
            for (Channel channel : CHANNELS) {
                ProviderSimulator simulator = simulators.get(channel.wireName());
                assertEquals(DEVICES_PER_CHANNEL, counter(task, channel, "sent"), channel + " sent");
                assertEquals(0, counter(task, channel, "failed"), channel + " failed");
                assertEquals(DEVICES_PER_CHANNEL, simulator.recorder().distinctTokens(),
                        channel + ": devices the provider accepted");
                for (PushBatch.Target target : targets.get(channel)) {
                    assertTrue(simulator.recorder().deliveriesTo(target.token()) >= 1, target.token());
                }
                duplicates += (int) (simulator.recorder().deliveries() - simulator.recorder().distinctTokens());
            }
            // at most the batches the dead worker held: batches-in-flight per channel
            assertTrue(duplicates <= CHANNELS.size() * 2 * BATCH, "duplicates " + duplicates);
            System.out.printf("WorkerCrashIT: killed at %d of %d batches with %d mid-way; %d deliveries repeated"
                    + " to providers, counted once%n", doneAtKill, BATCHES, claimedAtKill, duplicates);
        } finally {
            second.kill();
            third.kill();
        }
    }

    private static Connection database() throws Exception {
        return DriverManager.getConnection(SharedInfrastructure.get().jdbcUrl(), "postgres", "postgres");
    }

    private static long task(Connection c) throws Exception {
        long task;
        try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request, batches_total)"
                + " values (?, 'dispatching', '{}'::jsonb, ?) returning task_id")) {
            ps.setString(1, APP);
            ps.setInt(2, BATCHES);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                task = rs.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "insert into push_task_counts (task_id, channel, target) values (?, ?, ?)")) {
            for (Channel channel : CHANNELS) {
                ps.setLong(1, task);
                ps.setString(2, channel.wireName());
                ps.setInt(3, DEVICES_PER_CHANNEL);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return task;
    }

    /** DEVICES_PER_CHANNEL devices per channel, each with its own token there. */
    private static Map<Channel, List<PushBatch.Target>> devices(Connection c) throws Exception {
        Map<Channel, List<PushBatch.Target>> targets = new HashMap<>();
        long user = 1;
        for (Channel channel : CHANNELS) {
            List<PushBatch.Target> list = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("with d as (insert into push_devices (app_id, user_id,"
                    + " device_sn) select ?, u, 1 from generate_series(?::bigint, ?::bigint) u"
                    + " returning device_id, user_id) select device_id, user_id from d order by device_id")) {
                ps.setString(1, APP);
                ps.setLong(2, user);
                ps.setLong(3, user + DEVICES_PER_CHANNEL - 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        list.add(new PushBatch.Target(rs.getLong(1), rs.getLong(2), 1,
                                "tok-" + channel.wireName() + "-" + rs.getLong(2), "cert-" + channel.wireName(), 1,
                                null));
                    }
                }
            }
            user += DEVICES_PER_CHANNEL;
            targets.put(channel, list);
        }
        return targets;
    }

    private static int batchesDone(long task) throws Exception {
        return intValue("select batches_done from push_tasks where task_id = ?", task);
    }

    private static String state(long task) throws Exception {
        try (Connection c = database();
                PreparedStatement ps = c.prepareStatement("select state from push_tasks where task_id = ?")) {
            ps.setLong(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static int counter(long task, Channel channel, String column) throws Exception {
        return intValue("select " + column + " from push_task_counts where task_id = ? and channel = '"
                + channel.wireName() + "'", task);
    }

    private static int intValue(String sql, long task) throws Exception {
        try (Connection c = database(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : -1;
            }
        }
    }
}
