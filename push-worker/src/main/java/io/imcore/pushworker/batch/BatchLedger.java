package io.imcore.pushworker.batch;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.jboss.logging.Logger;
import org.postgresql.util.PGInterval;

/**
 * push_worker_batches, the badge counters and the statistics: what makes every batch count exactly once.
 *
 * <p>A batch is claimed ({@code sending}) before anything is sent and finished ({@code done}) with its counts in
 * one transaction, which only the first finisher gets through. A redelivered batch that is {@code done} is skipped;
 * one still {@code sending} whose claim lease lapsed (its worker died mid-batch) is sent again and counted once; its
 * devices' badges, raised at the first claim, are read back rather than raised twice. One still {@code sending} under
 * a standing lease is held by a live worker (a rebalance gave the record to two): it is waited for, not sent twice.
 * The claims this replica holds are renewed every third of the lease ({@link ClaimLeases}).
 */
@ApplicationScoped
public class BatchLedger {

    /** Where a batch stands when a worker takes it. */
    enum Claim {
        /** First time: send it. */
        FRESH,
        /** A worker took it before and did not finish: send it again (the provider may see some targets twice). */
        RESUMED,
        /** Already counted: skip. */
        DONE,
        /** Its task no longer exists: skip. */
        TASK_GONE,
        /** Another live worker (or this one) is sending it under a standing lease: wait, then claim again. */
        HELD
    }

    /** A batch, as the key of this replica's claims. */
    private record BatchId(long taskId, int batchNo) {}

    private static final String FOREIGN_KEY_VIOLATION = "23503";
    private static final Logger LOG = Logger.getLogger(BatchLedger.class);

    private final Database database;
    private final String owner;
    private final Duration lease;
    private final ClaimLeases.Held<BatchId> held;

    public BatchLedger(Database database, ClaimLeases leases) {
        this.database = database;
        this.owner = leases.owner();
        this.lease = leases.lease();
        this.held = leases.track("batches", this::renew);
    }

    /**
     * Takes the batch: a new claim (FRESH), a lapsed one taken over (RESUMED), or why not. The claim (and its lease)
     * holds once {@code c}'s transaction commits; {@link #finish} or {@link #release} ends it.
     */
    Claim claim(Connection c, long taskId, int batchNo) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_worker_batches (task_id, batch_no, state,"
                + " owner, lease_until) values (?, ?, 'sending', ?, now() + ?) on conflict do nothing")) {
            ps.setLong(1, taskId);
            ps.setInt(2, batchNo);
            ps.setString(3, owner);
            ps.setObject(4, interval(lease));
            if (ps.executeUpdate() == 1) {
                return held(taskId, batchNo, Claim.FRESH);
            }
        } catch (SQLException e) {
            if (FOREIGN_KEY_VIOLATION.equals(e.getSQLState())) {
                return Claim.TASK_GONE;
            }
            throw e;
        }
        // the row is locked for the rest of the transaction: two replicas cannot both take a lapsed claim over
        try (PreparedStatement ps = c.prepareStatement("select state, lease_until is not null and lease_until > now()"
                + " from push_worker_batches where task_id = ? and batch_no = ? for update")) {
            ps.setLong(1, taskId);
            ps.setInt(2, batchNo);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Claim.TASK_GONE;
                }
                if ("done".equals(rs.getString(1))) {
                    return Claim.DONE;
                }
                if (rs.getBoolean(2)) {
                    return Claim.HELD;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("update push_worker_batches set owner = ?,"
                + " lease_until = now() + ? where task_id = ? and batch_no = ?")) {
            ps.setString(1, owner);
            ps.setObject(2, interval(lease));
            ps.setLong(3, taskId);
            ps.setInt(4, batchNo);
            ps.executeUpdate();
        }
        return held(taskId, batchNo, Claim.RESUMED);
    }

    private Claim held(long taskId, int batchNo, Claim claim) {
        held.add(new BatchId(taskId, batchNo));
        return claim;
    }

    /**
     * Gives a claim up without counting (the worker stops, or the batch failed and is read again): its lease ends
     * now, so the next worker given the record need not wait for it to lapse.
     */
    void release(long taskId, int batchNo) {
        if (!held.remove(new BatchId(taskId, batchNo))) {
            return;
        }
        try {
            database.inTransaction(c -> {
                try (PreparedStatement ps = c.prepareStatement("update push_worker_batches set lease_until = now()"
                        + " where task_id = ? and batch_no = ? and owner = ? and state = 'sending'")) {
                    ps.setLong(1, taskId);
                    ps.setInt(2, batchNo);
                    ps.setString(3, owner);
                    return ps.executeUpdate();
                }
            });
        } catch (RuntimeException e) { // the lease lapses by itself
            LOG.debugf("task %d batch %d: claim not released: %s", taskId, batchNo, e.getMessage());
        }
    }

    /** Extends the leases of these batches, this replica's (the {@link ClaimLeases} renewal). */
    private void renew(Connection c, List<BatchId> mine) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update push_worker_batches b set lease_until = now() + ?"
                + " from unnest(?, ?) as h(task_id, batch_no) where b.task_id = h.task_id"
                + " and b.batch_no = h.batch_no and b.owner = ? and b.state = 'sending'")) {
            ps.setObject(1, interval(lease));
            ps.setArray(2, Database.bigints(c, mine.stream().mapToLong(BatchId::taskId).toArray()));
            ps.setArray(3, c.createArrayOf("integer", mine.stream().map(BatchId::batchNo).toArray()));
            ps.setString(4, owner);
            ps.executeUpdate();
        }
    }

    private static PGInterval interval(Duration duration) {
        return new PGInterval(0, 0, 0, 0, 0, duration.toMillis() / 1000.0);
    }

    /**
     * The devices' badges after this notification: raised ({@code +N}) or set ({@code N}) on a fresh claim, read
     * back on a resumed one. A device without a badge row starts from 0; a device deleted since the expansion gets
     * none (and is sent without a badge).
     */
    Map<Long, Integer> badges(Connection c, Claim claim, String badge, long[] deviceIds) throws SQLException {
        boolean set = !badge.startsWith("+");
        int amount = Integer.parseInt(set ? badge : badge.substring(1));
        // rows in device order, so that two tasks raising the same devices at once lock them in the same order
        String sql = claim == Claim.FRESH
                ? "insert into push_device_badges as b (device_id, badge) select d.device_id, least(?, 99999)"
                        + " from push_devices d where d.device_id = any(?) order by d.device_id"
                        + " on conflict (device_id) do update set badge = "
                        + (set ? "excluded.badge" : "least(b.badge + excluded.badge, 99999)")
                        + " returning device_id, badge"
                : "select device_id, badge from push_device_badges where device_id = any(?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int index = 1;
            if (claim == Claim.FRESH) {
                ps.setInt(index++, amount);
            }
            ps.setArray(index, Database.bigints(c, deviceIds));
            Map<Long, Integer> badges = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    badges.put(rs.getLong(1), rs.getInt(2));
                }
            }
            return badges;
        }
    }

    /**
     * Counts the batch, unbinds its rejected tokens, closes the receipt ledger rows of its targets that were not sent
     * and completes the task after its last batch, in one transaction. Returns false when another worker finished the
     * batch first (then nothing is counted).
     */
    boolean finish(long taskId, int batchNo, Tally tally, boolean expired, long[] targets) {
        held.remove(new BatchId(taskId, batchNo));
        return database.inTransaction(c -> {
            // the batch's counts and when, kept on its row for the report's deliveries over time (no other write)
            try (PreparedStatement ps = c.prepareStatement("update push_worker_batches set state = 'done',"
                    + " finished_at = now(), counts = ?::jsonb"
                    + " where task_id = ? and batch_no = ? and state = 'sending'")) {
                ps.setString(1, countsJson(tally.counts()));
                ps.setLong(2, taskId);
                ps.setInt(3, batchNo);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_counts (task_id, channel, sent,"
                    + " failed, rejected, fallback_in, fallback_out) values (?, ?, ?, ?, ?, ?, ?)"
                    + " on conflict (task_id, channel) do update set sent = push_task_counts.sent + excluded.sent,"
                    + " failed = push_task_counts.failed + excluded.failed,"
                    + " rejected = push_task_counts.rejected + excluded.rejected,"
                    + " fallback_in = push_task_counts.fallback_in + excluded.fallback_in,"
                    + " fallback_out = push_task_counts.fallback_out + excluded.fallback_out")) {
                for (Map.Entry<Channel, Tally.Counts> entry : byChannelName(tally.counts())) {
                    Tally.Counts counts = entry.getValue();
                    ps.setLong(1, taskId);
                    ps.setString(2, entry.getKey().wireName());
                    ps.setInt(3, counts.sent);
                    ps.setInt(4, counts.failed);
                    ps.setInt(5, counts.rejected);
                    ps.setInt(6, counts.fallbackIn);
                    ps.setInt(7, counts.fallbackOut);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            // the reasons of the failed and rejected targets, counted with them (exact for the same reason)
            try (PreparedStatement ps = c.prepareStatement("insert into push_task_failures (task_id, channel,"
                    + " outcome, reason, count) values (?, ?, ?, ?, ?) on conflict (task_id, channel, outcome, reason)"
                    + " do update set count = push_task_failures.count + excluded.count")) {
                for (Map.Entry<Tally.FailureKey, Integer> entry : inKeyOrder(tally.failures())) {
                    ps.setLong(1, taskId);
                    ps.setString(2, entry.getKey().channel().wireName());
                    ps.setString(3, entry.getKey().outcome());
                    ps.setString(4, entry.getKey().reason());
                    ps.setInt(5, entry.getValue());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            unbind(c, tally.rejectedTokens());
            Receipts.forget(c, taskId, notSent(targets, tally));
            // The task row last, just before the commit: it is one row for every batch of the task, so every worker
            // thread and the expansion's mirror queue on it, and it is held only for the commit. The counter rows
            // come before it, in channel-name order, as in the expansion's mirror (TaskStore.saveCheckpoint), so
            // the two never wait on each other in a cycle. While the expansion still writes batches (state
            // expanding) it completes the task itself if the workers were faster (TaskStore.finish).
            String last = "state = 'dispatching' and batches_done + 1 >= batches_total";
            try (PreparedStatement ps = c.prepareStatement("update push_tasks set batches_done = batches_done + 1,"
                    + " batches_expired = batches_expired + ?,"
                    + " state = case when " + last + " then case when batches_expired + ? > 0 then 'expired'"
                    + " else 'done' end else state end,"
                    + " finished_at = case when " + last + " then now() else finished_at end where task_id = ?")) {
                int expiredBatch = expired ? 1 : 0;
                ps.setInt(1, expiredBatch);
                ps.setInt(2, expiredBatch);
                ps.setLong(3, taskId);
                ps.executeUpdate();
            }
            return true;
        });
    }

    /** The targets without a sent outcome: failed, rejected, or never tried (the batch expired first). */
    private static long[] notSent(long[] targets, Tally tally) {
        Map<Long, Tally.DeviceOutcome> outcomes = tally.deviceOutcomes();
        return Arrays.stream(targets).filter(device -> {
            Tally.DeviceOutcome outcome = outcomes.get(device);
            return outcome == null || !"sent".equals(outcome.state());
        }).toArray();
    }

    /** {"vendor_b": {"sent": 3, "failed": 0, "rejected": 1}, ...}: channel names need no escaping. */
    private static String countsJson(Map<Channel, Tally.Counts> counts) {
        StringJoiner json = new StringJoiner(", ", "{", "}");
        byChannelName(counts).forEach(entry -> json.add("\"" + entry.getKey().wireName() + "\": {\"sent\": "
                + entry.getValue().sent + ", \"failed\": " + entry.getValue().failed + ", \"rejected\": "
                + entry.getValue().rejected + "}"));
        return json.toString();
    }

    /** Unbinds the provider tokens refused for good, so that they are not targeted again. */
    static void unbind(Connection c, List<Tally.RejectedToken> rejectedTokens) throws SQLException {
        if (rejectedTokens.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("delete from push_device_tokens"
                + " where device_id = ? and channel = ? and token = ?")) {
            for (Tally.RejectedToken rejected : rejectedTokens) {
                ps.setLong(1, rejected.deviceId());
                ps.setString(2, rejected.channel().wireName());
                ps.setString(3, rejected.token());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** The rows' lock order, shared with the expansion's mirror: channel by wire name. */
    private static List<Map.Entry<Channel, Tally.Counts>> byChannelName(Map<Channel, Tally.Counts> counts) {
        return counts.entrySet().stream().sorted(Comparator.comparing(e -> e.getKey().wireName())).toList();
    }

    private static List<Map.Entry<Tally.FailureKey, Integer>> inKeyOrder(Map<Tally.FailureKey, Integer> failures) {
        return failures.entrySet().stream().sorted(Comparator.comparing((Map.Entry<Tally.FailureKey, Integer> e) ->
                e.getKey().channel().wireName()).thenComparing(e -> e.getKey().outcome())
                .thenComparing(e -> e.getKey().reason())).toList();
    }
}
