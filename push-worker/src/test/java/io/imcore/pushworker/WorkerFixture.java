package io.imcore.pushworker;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.testing.Eventually;
import io.imcore.testing.LockWaiters;
import io.imcore.testing.SharedInfrastructure;
import io.imcore.testing.TopicReader;
import io.imcore.testing.TopicWriter;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Test data in push-service's tables (an app of its own per test, its certificates, tasks and devices) and channel
 * records on the real topics, as push-service's expansion writes them.
 */
public final class WorkerFixture {

    private static final AtomicLong NEXT_USER = new AtomicLong(System.nanoTime() % 1_000_000_000L);

    /** A registered device with its token on one channel. */
    public record Device(long deviceId, long userId, int deviceSn, Channel channel, String token) {

        public PushBatch.Target target() {
            return new PushBatch.Target(deviceId, userId, deviceSn, token, "cert-" + channel.wireName(), 1, null);
        }

        public PushBatch.Target svcpushTarget(Device fallback) {
            return new PushBatch.Target(deviceId, userId, deviceSn, null, null, null, fallback == null ? null
                    : new PushBatch.OsRoute(fallback.channel.wireName(), fallback.token,
                            "cert-" + fallback.channel.wireName(), 1));
        }
    }

    public final String appId = "app" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final Database database;
    private final ObjectMapper mapper;

    public WorkerFixture(Database database, ObjectMapper mapper) {
        this.database = database;
        this.mapper = mapper;
    }

    /** Certificates for every OS channel (environment 1, and 0 for ios), sealed as push-service seals them. */
    public WorkerFixture withCertificates() {
        database.inTransaction(c -> {
            TestCertificates.insertAll(c, appId);
            return null;
        });
        return this;
    }

    /** A task as the expansion leaves it: dispatching with its batch count known. */
    public long task(int batchesTotal) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request,"
                    + " batches_total) values (?, 'dispatching', '{}'::jsonb, ?) returning task_id")) {
                ps.setString(1, appId);
                ps.setInt(2, batchesTotal);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /** A device with a token on the channel (svcpush: no token). */
    public Device device(Channel channel, String tokenPrefix) {
        long userId = NEXT_USER.incrementAndGet();
        String token = channel == Channel.SVCPUSH ? null : tokenPrefix + "-" + channel.wireName() + "-" + userId;
        long deviceId = database.inTransaction(c -> {
            long id;
            try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn)"
                    + " values (?, ?, 1) returning device_id")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    id = rs.getLong(1);
                }
            }
            if (token != null) {
                try (PreparedStatement ps = c.prepareStatement("insert into push_device_tokens (device_id, channel,"
                        + " app_id, token, notifier_name, environment) values (?, ?, ?, ?, ?, 1)")) {
                    ps.setLong(1, id);
                    ps.setString(2, channel.wireName());
                    ps.setString(3, appId);
                    ps.setString(4, token);
                    ps.setString(5, "cert-" + channel.wireName());
                    ps.executeUpdate();
                }
            }
            return id;
        });
        return new Device(deviceId, userId, 1, channel, token);
    }

    public ObjectNode message(String title, String badge) {
        ObjectNode message = mapper.createObjectNode().put("type", "text").put("title", title)
                .put("body", "body of " + title).put("badge", badge);
        message.putObject("channels");
        return message;
    }

    public void send(long taskId, int batchNo, Channel channel, ObjectNode message, Long showEndTime,
            List<PushBatch.Target> targets) throws Exception {
        PushBatch batch = new PushBatch(PushBatch.VERSION, taskId, appId, batchNo, channel.wireName(), message,
                showEndTime, targets, null);
        TopicWriter.send(channel.topic(), batch.key(), mapper.writeValueAsString(batch));
    }

    /** A device's offline_push_trace row as push-service's decision leaves it (state queued, or as given). */
    public void traceRow(long msgId, Device device, String conversation, String state) {
        execute("insert into offline_push_trace (app_id, msg_id, user_id, device_sn, device_id, conversation,"
                + " decision, channel, state) values (?, ?, ?, ?, ?, ?, 'offline_push', ?, ?)", appId, msgId,
                device.userId(), device.deviceSn(), device.deviceId(), conversation, device.channel().wireName(),
                state);
    }

    /** An offline push channel record (task id 0, the message and the recipient's conversation), as push-service's. */
    public PushBatch offlineRecord(long msgId, String conversation, Channel channel, ObjectNode message,
            List<PushBatch.Target> targets) {
        return new PushBatch(PushBatch.VERSION, 0, appId, 0, channel.wireName(), message, null, targets,
                new PushBatch.Offline(msgId, conversation, System.currentTimeMillis()));
    }

    /** Writes an offline push record ({@link #offlineRecord}). */
    public void sendOffline(long msgId, String conversation, Channel channel, ObjectNode message,
            List<PushBatch.Target> targets) throws Exception {
        PushBatch batch = offlineRecord(msgId, conversation, channel, message, targets);
        TopicWriter.send(channel.topic(), batch.key(), mapper.writeValueAsString(batch));
    }

    /**
     * Writes the records in one Kafka transaction, as push-service's feed does a poll's: the worker's read_committed
     * consumer sees them all at once.
     */
    public void sendTogether(List<PushBatch> batches) throws Exception {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (PushBatch batch : batches) {
            records.add(new ProducerRecord<>(Channel.fromWireName(batch.channel()).orElseThrow().topic(), batch.key(),
                    mapper.writeValueAsString(batch)));
        }
        TopicWriter.sendTogether(records);
    }

    /** A column of the device's trace row of the message (null when there is no row or the value is null). */
    public String trace(long msgId, Device device, String column) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select " + column + "::text from offline_push_trace"
                    + " where app_id = ? and msg_id = ? and device_id = ?")) {
                ps.setString(1, appId);
                ps.setLong(2, msgId);
                ps.setLong(3, device.deviceId());
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }

    public void awaitTrace(long msgId, Device device, String state) {
        Eventually.until(Duration.ofSeconds(30), "message " + msgId + " to device " + device.deviceId() + " " + state,
                () -> state.equals(trace(msgId, device, "state")));
    }

    /** offline_push_daily of this app, today (UTC), on the channel (its slots summed): sent, failed, rejected or received. */
    public int daily(Channel channel, String column) {
        return Math.max(0, intValue("select coalesce(sum(" + column + "), 0) from offline_push_daily"
                + " where app_id = ?"
                + " and day = (now() at time zone 'UTC')::date and channel = ?", appId, channel.wireName()));
    }

    public void awaitState(long taskId, String state) {
        Eventually.until(Duration.ofSeconds(30), "task " + taskId + " " + state, () -> state.equals(state(taskId)));
    }

    public String state(long taskId) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement("select state from push_tasks where task_id = ?")) {
                ps.setLong(1, taskId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        });
    }

    /** push_task_counts of the task: channel -> column -> value. */
    public Map<String, Map<String, Integer>> counts(long taskId) {
        return database.read(c -> {
            Map<String, Map<String, Integer>> counts = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement("select channel, target, sent, received, failed,"
                    + " rejected, fallback_in, fallback_out from push_task_counts where task_id = ?")) {
                ps.setLong(1, taskId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Map<String, Integer> row = new HashMap<>();
                        for (String column : List.of("target", "sent", "received", "failed", "rejected",
                                "fallback_in", "fallback_out")) {
                            row.put(column, rs.getInt(column));
                        }
                        counts.put(rs.getString(1), row);
                    }
                }
            }
            return counts;
        });
    }

    /** push_task_failures of the task: "channel outcome reason" -> count. */
    public Map<String, Integer> failures(long taskId) {
        return database.read(c -> {
            Map<String, Integer> failures = new HashMap<>();
            try (PreparedStatement ps = c.prepareStatement(
                    "select channel, outcome, reason, count from push_task_failures where task_id = ?")) {
                ps.setLong(1, taskId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        failures.put(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3), rs.getInt(4));
                    }
                }
            }
            return failures;
        });
    }

    public int count(long taskId, Channel channel, String column) {
        return counts(taskId).getOrDefault(channel.wireName(), Map.of()).getOrDefault(column, 0);
    }

    public int intValue(String sql, Object... parameters) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, parameters);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getInt(1) : -1;
                }
            }
        });
    }

    /** The first column of every row the query answers, in its order. */
    public List<String> strings(String sql, Object... parameters) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, parameters);
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(rs.getString(1));
                    }
                }
                return rows;
            }
        });
    }

    public void execute(String sql, Object... parameters) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, parameters);
                ps.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Waits until a worker tries to claim the row the query locks ({@code select ... for update}): the row stays
     * locked here until a claim queues behind the lock, then the claim reads the row as it stands. Two calls in a row
     * show a worker that read the row, left it to the worker holding it, and came back to claim it again.
     */
    public void awaitClaimOf(String rowForUpdate, Object... parameters) {
        database.inTransaction(c -> {
            try (PreparedStatement lock = c.prepareStatement(rowForUpdate)) {
                bind(lock, parameters);
                lock.executeQuery().close();
            }
            LockWaiters.await(c, "a claim waiting for " + rowForUpdate);
            return null;
        });
    }

    private static void bind(PreparedStatement ps, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            ps.setObject(i + 1, parameters[i]);
        }
    }

    /** Waits until the consumer group has committed every record of the topic (it has seen them all). */
    public static void awaitConsumed(String topic, String group) {
        try (Admin admin = SharedInfrastructure.get().kafkaClients().admin(Map.of())) {
            Eventually.until(Duration.ofSeconds(30), topic + " consumed by " + group, () -> {
                Map<TopicPartition, OffsetAndMetadata> committed =
                        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                for (var end : TopicReader.endOffsets(admin, topic).entrySet()) {
                    OffsetAndMetadata at = committed.get(end.getKey());
                    if (end.getValue() > 0 && (at == null || at.offset() < end.getValue())) {
                        return false;
                    }
                }
                return true;
            });
        }
    }
}
