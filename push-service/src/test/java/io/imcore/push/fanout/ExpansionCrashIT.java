package io.imcore.push.fanout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.context.AuthViewStore;
import io.imcore.pushcontract.Channel;
import io.imcore.testing.ServiceProcess;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TestTokens;
import io.imcore.testing.TopicReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The packaged push-service killed with SIGKILL in the middle of an expansion, twice, and taken over by a replica
 * with another name (so the dead one's open Kafka transaction is aborted by the broker's timeout, not fenced): every
 * device of the audience is on the channel topics exactly once, the batch numbers are 0..n-1 each once, and the
 * target counters equal what the records carry. A task scheduled before the crash is dispatched after it.
 */
class ExpansionCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String APP = "app" + UUID.randomUUID().toString().substring(0, 8);
    private static final int DEVICES = 30_000;

    @Test
    void aCrashMidExpansionLosesNothingAndRepeatsNothing() throws Exception {
        ServiceProcess first = start("one"); // migrates the database
        try (Connection c = database()) {
            AuthViewStore.upsertApp(c, APP, 1);
            seed(c);
        }
        long scheduled = notify(first, "{\"audience\":{\"user_id\":[1]},\"message\":{\"title\":\"later\","
                + "\"show_begin_time\":" + (Instant.now().getEpochSecond() + 12) + "}}");
        long task = notify(first, "{\"audience\":\"all\",\"message\":{\"title\":\"everyone\"}}");

        int pagesAtFirstKill = killWhenPagesReach(first, task, 10);
        ServiceProcess second = start("two");
        int pagesAtSecondKill = killWhenPagesReach(second, task, pagesAtFirstKill + 15);
        ServiceProcess third = start("three");
        try {
            assertTrue(pagesAtFirstKill < pagesAtSecondKill && pagesAtSecondKill < DEVICES / 200,
                    "both kills hit the middle of the expansion: " + pagesAtFirstKill + ", " + pagesAtSecondKill);
            awaitState(task, "dispatching");

            Map<String, Integer> recordTargets = new HashMap<>();
            Set<Long> devices = new HashSet<>();
            Set<Integer> batchNumbers = new HashSet<>();
            int targetsSeen = 0;
            for (Channel channel : Channel.values()) {
                for (ConsumerRecord<String, String> record : TopicReader.readAll(channel.topic())) {
                    if (!record.key().startsWith(task + ":")) {
                        continue;
                    }
                    JsonNode batch = JSON.readTree(record.value());
                    assertTrue(batchNumbers.add(batch.path("batch_no").asInt()), "batch twice: " + record.key());
                    for (JsonNode target : batch.path("targets")) {
                        assertTrue(devices.add(target.path("device_id").asLong()),
                                "device twice: " + target.path("device_id"));
                        targetsSeen++;
                    }
                    recordTargets.merge(channel.wireName(), batch.path("targets").size(), Integer::sum);
                }
            }
            int reachable = DEVICES - DEVICES / 10; // every tenth device has no token and is offline
            assertEquals(reachable, targetsSeen, "every reachable device once");
            assertEquals(reachable, devices.size());
            try (Connection c = database()) {
                assertEquals(recordTargets, targetCounters(c, task), "target counters = what the records carry");
                int batchesTotal = intColumn(c, task, "batches_total");
                assertEquals(batchesTotal, batchNumbers.size());
                for (int i = 0; i < batchesTotal; i++) {
                    assertTrue(batchNumbers.contains(i), "batch " + i + " missing");
                }
                assertEquals(DEVICES, intColumn(c, task, "devices_expanded"));
            }
            awaitState(scheduled, "dispatching");
        } finally {
            third.kill();
        }
    }

    /** 30,000 devices: a tenth with no token and offline, a tenth online, the rest on APNs, FCM or Xiaomi. */
    private static void seed(Connection c) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("insert into push_apps (app_id, push_enabled) values (?, true)")) {
            ps.setString(1, APP);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn, push_token)"
                + " select ?, g, 1, 'pt-' || g from generate_series(1, ?) g")) {
            ps.setString(1, APP);
            ps.setInt(2, DEVICES);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into push_device_tokens"
                + " (device_id, channel, app_id, token, notifier_name, environment)"
                + " select device_id, (array['ios', 'cloud', 'vendor_b'])[user_id % 3 + 1], app_id, 'tok-' || user_id,"
                + " 'n', 1 from push_devices where app_id = ? and user_id % 10 <> 0")) {
            ps.setString(1, APP);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into push_presence"
                + " (app_id, user_id, device_sn, seq, online) select ?, g, 1, 1, true"
                + " from generate_series(5, ?, 10) g")) {
            ps.setString(1, APP);
            ps.setInt(2, DEVICES);
            ps.executeUpdate();
        }
    }

    private static ServiceProcess start(String name) throws Exception {
        return ServiceProcess.start("push-" + name, Map.of(
                "im.push.fanout.replica-id", "crash-" + name,
                "im.push.fanout.page-size", "200",
                "im.push.fanout.poll-interval", "100MS",
                "im.push.fanout.transaction-timeout", "5S",
                "im.push.certificate-key", "dGVzdC1vbmx5LWNlcnRpZmljYXRlLWtleS0zMmJ5dGU="));
    }

    private static int killWhenPagesReach(ServiceProcess service, long task, int pages) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        try (Connection c = database()) {
            while (System.currentTimeMillis() < deadline) {
                int reached = intColumn(c, task, "pages");
                if (reached >= pages) {
                    service.kill();
                    return intColumn(c, task, "pages");
                }
                Thread.sleep(5);
            }
        }
        throw new AssertionError("the expansion did not reach page " + pages + " in time");
    }

    private static long notify(ServiceProcess service, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + "/push/notify"))
                .header("app_id", APP)
                .header("access-token", TestTokens.signRs256(TestTokens.adminClaims(APP),
                        SharedInfrastructure.get().jwtKeys()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        JsonNode answer = JSON.readTree(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(200, answer.path("code").asInt(), answer.toString());
        return answer.path("data").path("task_id").asLong();
    }

    private static void awaitState(long task, String state) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        try (Connection c = database()) {
            while (System.currentTimeMillis() < deadline) {
                try (PreparedStatement ps = c.prepareStatement("select state from push_tasks where task_id = ?")) {
                    ps.setLong(1, task);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (state.equals(rs.getString(1))) {
                            return;
                        }
                    }
                }
                Thread.sleep(100);
            }
        }
        throw new AssertionError("task " + task + " never reached " + state);
    }

    private static Map<String, Integer> targetCounters(Connection c, long task) throws Exception {
        Map<String, Integer> counters = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select channel, target from push_task_counts where task_id = ? and target > 0")) {
            ps.setLong(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counters.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return counters;
    }

    private static int intColumn(Connection c, long task, String column) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("select " + column + " from push_tasks where task_id = ?")) {
            ps.setLong(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static Connection database() throws Exception {
        Map<String, String> config = SharedInfrastructure.get().quarkusConfig();
        return DriverManager.getConnection(config.get("quarkus.datasource.jdbc.url"),
                config.get("quarkus.datasource.username"), config.getOrDefault("quarkus.datasource.password", ""));
    }
}
