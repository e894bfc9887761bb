package io.imcore.pushworker.batch;

import io.imcore.common.store.Database;
import io.imcore.common.store.GroupCommitter;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import io.micrometer.core.instrument.DistributionSummary;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * The claim and the count of offline push records (docs/offline-push.md): the devices' rows in
 * {@code offline_push_trace} go {@code queued -> sending -> sent | failed | rejected} (or {@code superseded} when a
 * newer message of the same conversation is already on its way to the device). A row is sent only by the worker that
 * moved it to {@code sending}, under a lease renewed like the task batches' ({@link ClaimLeases}); a lapsed one is
 * taken over. So a device gets one notification per message whatever Kafka redelivers, except when a worker dies
 * between the provider's answer and its finish (then the device may get it twice, as with task batches).
 * <p>
 * The claims of the records that arrive together (every channel's poll) share one transaction and one statement of
 * each kind, and so do their finishes ({@link GroupCommitter}): a poll costs a few statements, not a few per record
 * or per device.
 */
@ApplicationScoped
public class OfflineLedger {

    /** The devices of the record this worker now sends; {@code held}: another live worker sends some of them. */
    record ClaimedDevices(Set<Long> devices, boolean held) {}

    /** A device's trace row of a message. */
    private record Key(String appId, long msgId, long deviceId) {}

    /** The message of a record: two records of one message never share a commit (nor a statement a row). */
    private record Message(String appId, long msgId) {
        Message(PushBatch batch) {
            this(batch.appId(), batch.offline().msgId());
        }
    }

    /** The claimed devices of a record, what sending them came to, and the channel they count on. */
    private record Finish(PushBatch batch, Set<Long> devices, Tally tally, String channel) {}

    /** offline_push_daily's row of an app and channel (its slot drawn by the statement). */
    private record DailyRow(String appId, String channel) {}

    /** A finish's additions to a daily row. */
    private static final class DailyCounts {
        long sent;
        long failed;
        long rejected;
    }

    private static final Logger LOG = Logger.getLogger(OfflineLedger.class);
    /** offline_push_daily's slots per app, day and channel (migration V9): concurrent finishes rarely share a row. */
    private static final int DAILY_SLOTS = 16;
    /** Records per group commit: above what every channel's poll brings at once (batches-in-flight each). */
    private static final int MAX_RECORDS_PER_COMMIT = 100;
    private static final Comparator<Key> LOCK_ORDER = Comparator.comparing(Key::appId).thenComparingLong(Key::msgId)
            .thenComparingLong(Key::deviceId);

    private final Database database;
    private final String owner;
    private final Duration lease;
    private final ClaimLeases.Held<Key> held;
    private final GroupCommitter<PushBatch, ClaimedDevices> claims;
    private final GroupCommitter<Finish, Integer> finishes;

    public OfflineLedger(Database database, ClaimLeases leases, WorkerMetrics metrics) {
        this.database = database;
        this.owner = leases.owner();
        this.lease = leases.lease();
        this.held = leases.track("offline push devices", this::renew);
        this.claims = new GroupCommitter<>("offline-push-claims", database, MAX_RECORDS_PER_COMMIT, Message::new,
                this::claimAll, DistributionSummary.builder("imcore.push.worker.offline.claim.batch")
                        .description("offline push records claimed per transaction").register(metrics.registry()));
        this.finishes = new GroupCommitter<>("offline-push-finishes", database, MAX_RECORDS_PER_COMMIT,
                finish -> new Message(finish.batch()), this::finishAll,
                DistributionSummary.builder("imcore.push.worker.offline.finish.batch")
                        .description("offline push records counted per transaction").register(metrics.registry()));
    }

    void start(@Observes StartupEvent event) {
        claims.start();
        finishes.start();
    }

    /** Commits what is queued; a claim or finish asked for later is committed alone. */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        claims.stop();
        finishes.stop();
    }

    /**
     * Claims the record's devices that are queued (or whose holder's lease lapsed), in a commit shared with the
     * records claimed at the same time; marks superseded the ones a newer message of the conversation is already
     * queued, sending or sent to. Completes after the commit, on the committer's thread.
     */
    CompletableFuture<ClaimedDevices> claim(PushBatch batch) {
        long msgId = batch.offline().msgId();
        return claims.submit(batch).thenApply(found -> {
            found.devices().forEach(d -> held.add(new Key(batch.appId(), msgId, d)));
            return found;
        });
    }

    /**
     * Records each claimed device's outcome and the day's counts, in a commit shared with the records finished at the
     * same time; a device this worker no longer holds (its lease lapsed and another took it over) is not counted
     * here. Completes with the devices counted sent after the commit, on the committer's thread.
     */
    CompletableFuture<Integer> finish(PushBatch batch, Set<Long> devices, Tally tally, String channel) {
        long msgId = batch.offline().msgId();
        devices.forEach(d -> held.remove(new Key(batch.appId(), msgId, d)));
        return finishes.submit(new Finish(batch, devices, tally, channel));
    }

    /** Gives the claims up without counting (stopping, or a failure): the record is read again. */
    void release(PushBatch batch, Set<Long> devices) {
        long msgId = batch.offline().msgId();
        List<Key> rows = devices.stream().map(d -> new Key(batch.appId(), msgId, d)).toList();
        rows.forEach(held::remove);
        try {
            database.inTransaction(c -> {
                update(c, rows, "lease_until = now()", "");
                return null;
            });
        } catch (RuntimeException e) { // the lease lapses by itself
            LOG.debugf("offline push of message %d: claims not released: %s", msgId, e.getMessage());
        }
    }

    /**
     * The claim's read of the records' rows, each by its (app, message, device) index (migration V16: through the
     * primary key a group message's claim read all the message's rows once per device), with the superseded check
     * through the device index. Package-visible for the plan check ({@code OfflineLedgerPlansTest}).
     */
    static final String CLAIM = "with w(app_id, msg_id, device_id) as"
            + " (select * from unnest(?::text[], ?::bigint[], ?::bigint[]))"
            + " select t.app_id, t.msg_id, t.device_id, t.state,"
            + " t.lease_until is not null and t.lease_until > now() and t.owner is distinct from ?,"
            + " exists (select 1 from offline_push_trace n where n.device_id = t.device_id"
            + " and n.conversation = t.conversation and n.msg_id > t.msg_id"
            + " and n.state in ('queued', 'sending', 'sent'))"
            + " from offline_push_trace t join w"
            + " on t.app_id = w.app_id and t.msg_id = w.msg_id and t.device_id = w.device_id"
            + " order by t.app_id, t.msg_id, t.device_id for update of t";

    /**
     * The claims of the records, in one statement of each kind: their rows locked in (app, message, device) order
     * (as the finish and push-service's receipts lock them), the superseded ones marked, the others set sending.
     */
    private List<ClaimedDevices> claimAll(Connection c, List<PushBatch> records) throws SQLException {
        SortedSet<Key> wanted = new TreeSet<>(LOCK_ORDER);
        for (PushBatch batch : records) {
            batch.targets().forEach(t -> wanted.add(new Key(batch.appId(), batch.offline().msgId(), t.deviceId())));
        }
        List<Key> claimable = new ArrayList<>();
        List<Key> superseded = new ArrayList<>();
        Set<Key> heldElsewhere = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            setKeys(c, ps, wanted);
            ps.setString(4, owner);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Key row = new Key(rs.getString(1), rs.getLong(2), rs.getLong(3));
                    String state = rs.getString(4);
                    boolean leased = rs.getBoolean(5);
                    boolean newer = rs.getBoolean(6);
                    if ("queued".equals(state) || "sending".equals(state) && !leased) {
                        if (newer && "queued".equals(state)) {
                            superseded.add(row);
                        } else {
                            claimable.add(row);
                        }
                    } else if ("sending".equals(state)) {
                        heldElsewhere.add(row);
                    }
                }
            }
        }
        update(c, superseded, "state = 'superseded', reason = 'a newer message of the conversation notifies instead'",
                "");
        update(c, claimable, "state = 'sending', owner = ?, lease_until = now() + make_interval(secs => ?)", "",
                owner, lease.toMillis() / 1000.0);
        Set<Key> claimed = new HashSet<>(claimable);
        List<ClaimedDevices> answers = new ArrayList<>(records.size());
        for (PushBatch batch : records) {
            Set<Long> devices = new HashSet<>();
            boolean othersHold = false;
            for (Target target : batch.targets()) {
                Key row = new Key(batch.appId(), batch.offline().msgId(), target.deviceId());
                if (claimed.contains(row)) {
                    devices.add(target.deviceId());
                }
                othersHold |= heldElsewhere.contains(row);
            }
            answers.add(new ClaimedDevices(devices, othersHold));
        }
        return answers;
    }

    /**
     * The finishes of the records: every device's outcome in one statement (only the rows still sending under this
     * worker's claim count, locked in (app, message, device) order), their counts summed per app and channel into
     * one offline_push_daily statement, the refused tokens unbound. Answers each record's devices counted sent.
     */
    private List<Integer> finishAll(Connection c, List<Finish> records) throws SQLException {
        Map<Key, Tally.DeviceOutcome> outcomes = new TreeMap<>(LOCK_ORDER);
        Map<Key, Integer> recordOf = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            Finish finish = records.get(i);
            for (long device : finish.devices()) {
                Key row = new Key(finish.batch().appId(), finish.batch().offline().msgId(), device);
                outcomes.put(row, finish.tally().deviceOutcomes().getOrDefault(device,
                        new Tally.DeviceOutcome("failed", "no answer recorded")));
                recordOf.put(row, i);
            }
        }
        int[] sent = new int[records.size()];
        Map<DailyRow, DailyCounts> daily = new TreeMap<>(
                Comparator.comparing(DailyRow::appId).thenComparing(DailyRow::channel));
        if (!outcomes.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("with o(app_id, msg_id, device_id, state, reason) as"
                    + " (select * from unnest(?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[])),"
                    + " mine as (select t.app_id, t.msg_id, t.device_id from offline_push_trace t join o"
                    + " on t.app_id = o.app_id and t.msg_id = o.msg_id and t.device_id = o.device_id"
                    + " where t.state = 'sending' and t.owner = ?"
                    + " order by t.app_id, t.msg_id, t.device_id for update of t)"
                    + " update offline_push_trace t set state = o.state, reason = o.reason,"
                    + " sent_at = case when o.state = 'sent' then now() else t.sent_at end, lease_until = null"
                    + " from o join mine m on m.app_id = o.app_id and m.msg_id = o.msg_id and m.device_id = o.device_id"
                    + " where t.app_id = o.app_id and t.msg_id = o.msg_id and t.device_id = o.device_id"
                    + " and t.state = 'sending' and t.owner = ?"
                    + " returning t.app_id, t.msg_id, t.device_id, t.state")) {
                setKeys(c, ps, outcomes.keySet());
                ps.setArray(4, c.createArrayOf("text", outcomes.values().stream()
                        .map(Tally.DeviceOutcome::state).toArray()));
                ps.setArray(5, c.createArrayOf("text", outcomes.values().stream()
                        .map(Tally.DeviceOutcome::reason).toArray()));
                ps.setString(6, owner);
                ps.setString(7, owner);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int record = recordOf.get(new Key(rs.getString(1), rs.getLong(2), rs.getLong(3)));
                        Finish finish = records.get(record);
                        DailyCounts counts = daily.computeIfAbsent(
                                new DailyRow(finish.batch().appId(), finish.channel()), r -> new DailyCounts());
                        switch (rs.getString(4)) {
                            case "sent" -> {
                                counts.sent++;
                                sent[record]++;
                            }
                            case "rejected" -> counts.rejected++;
                            default -> counts.failed++;
                        }
                    }
                }
            }
        }
        addDaily(c, daily);
        BatchLedger.unbind(c, records.stream().flatMap(f -> f.tally().rejectedTokens().stream()).toList());
        return Arrays.stream(sent).boxed().toList();
    }

    /** Adds the counts to a random slot of each app's and channel's row of the day, in one statement. */
    private static void addDaily(Connection c, Map<DailyRow, DailyCounts> daily) throws SQLException {
        if (daily.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("insert into offline_push_daily as d (app_id, day, channel,"
                + " slot, sent, failed, rejected) select n.app_id, (now() at time zone 'UTC')::date, n.channel,"
                + " floor(random() * " + DAILY_SLOTS + ")::smallint, n.sent, n.failed, n.rejected"
                + " from unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[])"
                + " as n(app_id, channel, sent, failed, rejected)"
                + " on conflict (app_id, day, channel, slot) do update set sent = d.sent + excluded.sent,"
                + " failed = d.failed + excluded.failed, rejected = d.rejected + excluded.rejected")) {
            ps.setArray(1, c.createArrayOf("text", daily.keySet().stream().map(DailyRow::appId).toArray()));
            ps.setArray(2, c.createArrayOf("text", daily.keySet().stream().map(DailyRow::channel).toArray()));
            ps.setArray(3, Database.bigints(c, daily.values().stream().mapToLong(d -> d.sent).toArray()));
            ps.setArray(4, Database.bigints(c, daily.values().stream().mapToLong(d -> d.failed).toArray()));
            ps.setArray(5, Database.bigints(c, daily.values().stream().mapToLong(d -> d.rejected).toArray()));
            ps.executeUpdate();
        }
    }

    /** Extends the leases of these devices' claims, this replica's (the {@link ClaimLeases} renewal). */
    private void renew(Connection c, List<Key> mine) throws SQLException {
        update(c, mine, "lease_until = now() + make_interval(secs => ?)", " and t.owner = ? and t.state = 'sending'",
                lease.toMillis() / 1000.0, owner);
    }

    /**
     * Sets {@code assignments} on these trace rows where {@code condition} (" and ..." on {@code t}, or empty) holds;
     * {@code values} fill the placeholders of both, in order.
     */
    private static void update(Connection c, Collection<Key> rows, String assignments, String condition,
            Object... values) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("with w(app_id, msg_id, device_id) as"
                + " (select * from unnest(?::text[], ?::bigint[], ?::bigint[]))"
                + " update offline_push_trace t set " + assignments + " from w where t.app_id = w.app_id"
                + " and t.msg_id = w.msg_id and t.device_id = w.device_id" + condition)) {
            setKeys(c, ps, rows);
            for (int i = 0; i < values.length; i++) {
                ps.setObject(4 + i, values[i]);
            }
            ps.executeUpdate();
        }
    }

    /** Parameters 1 to 3: the rows' apps, messages and devices, as arrays for unnest. */
    private static void setKeys(Connection c, PreparedStatement ps, Collection<Key> rows) throws SQLException {
        ps.setArray(1, c.createArrayOf("text", rows.stream().map(Key::appId).toArray()));
        ps.setArray(2, Database.bigints(c, rows.stream().mapToLong(Key::msgId).toArray()));
        ps.setArray(3, Database.bigints(c, rows.stream().mapToLong(Key::deviceId).toArray()));
    }

    /** An offline push's badges: each device's user's unread count, from the record's {@code badges}. */
    static Map<Long, Integer> badges(PushBatch batch) {
        Map<Long, Integer> badges = new HashMap<>();
        batch.message().path("badges").fields().forEachRemaining(e -> {
            if (e.getValue().canConvertToInt()) {
                badges.put(Long.parseLong(e.getKey()), e.getValue().intValue());
            }
        });
        return badges;
    }
}
