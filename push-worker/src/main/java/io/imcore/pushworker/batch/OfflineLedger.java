package io.imcore.pushworker.batch;

import io.imcore.common.push.PushBatch;
import io.imcore.common.push.PushBatch.Target;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The claim and the count of an offline push record (docs/offline-push.md): the devices' rows in
 * {@code offline_push_trace} go {@code queued -> sending -> sent | failed | rejected} (or {@code superseded} when a
 * newer message of the same conversation is already on its way to the device). A row is sent only by the worker that
 * moved it to {@code sending}, under a lease renewed like the task batches' ({@link ClaimLeases}); a lapsed one is
 * taken over. So a device gets one notification per message whatever Kafka redelivers, except when a worker dies
 * between the provider's answer and its finish (then the device may get it twice, as with task batches).
 */
@ApplicationScoped
public class OfflineLedger {

    /** The devices of the record this worker now sends; {@code held}: another live worker sends some of them. */
    record Claimed(Set<Long> devices, boolean held) {}

    private record Key(String appId, long msgId, long deviceId) {}

    private static final Logger LOG = Logger.getLogger(OfflineLedger.class);
    /** offline_push_daily's slots per app, day and channel (migration V9): concurrent finishes rarely share a row. */
    private static final int DAILY_SLOTS = 16;

    private final Database database;
    private final String owner;
    private final Duration lease;
    private final ClaimLeases.Held<Key> held;

    public OfflineLedger(Database database, ClaimLeases leases) {
        this.database = database;
        this.owner = leases.owner();
        this.lease = leases.lease();
        this.held = leases.track("offline push devices", this::renew);
    }

    /**
     * Claims the record's devices that are queued (or whose holder's lease lapsed); marks superseded the ones a
     * newer message of the conversation is already queued, sending or sent to. Rows are locked in device order.
     */
    Claimed claim(Connection c, PushBatch batch) throws SQLException {
        long msgId = batch.offline().msgId();
        long[] deviceIds = batch.targets().stream().mapToLong(Target::deviceId).sorted().toArray();
        Set<Long> claimable = new HashSet<>();
        boolean heldElsewhere = false;
        try (PreparedStatement ps = c.prepareStatement("select t.device_id, t.state,"
                + " t.lease_until is not null and t.lease_until > now() and t.owner is distinct from ?,"
                + " exists (select 1 from offline_push_trace n where n.device_id = t.device_id"
                + " and n.conversation = t.conversation and n.msg_id > t.msg_id"
                + " and n.state in ('queued', 'sending', 'sent'))"
                + " from offline_push_trace t where t.app_id = ? and t.msg_id = ? and t.device_id = any(?)"
                + " order by t.device_id for update of t")) {
            ps.setString(1, owner);
            ps.setString(2, batch.appId());
            ps.setLong(3, msgId);
            ps.setArray(4, Database.bigints(c, deviceIds));
            Set<Long> superseded = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long device = rs.getLong(1);
                    String state = rs.getString(2);
                    boolean leased = rs.getBoolean(3);
                    boolean newer = rs.getBoolean(4);
                    if ("queued".equals(state) || "sending".equals(state) && !leased) {
                        if (newer && "queued".equals(state)) {
                            superseded.add(device);
                        } else {
                            claimable.add(device);
                        }
                    } else if ("sending".equals(state)) {
                        heldElsewhere = true;
                    }
                }
            }
            update(c, batch.appId(), msgId, superseded, "state = 'superseded', reason = 'a newer message of the"
                    + " conversation notifies instead'");
        }
        if (heldElsewhere && claimable.isEmpty()) {
            return new Claimed(Set.of(), true);
        }
        if (!claimable.isEmpty()) {
            try (PreparedStatement ps = c.prepareStatement("update offline_push_trace set state = 'sending',"
                    + " owner = ?, lease_until = now() + make_interval(secs => ?)"
                    + " where app_id = ? and msg_id = ? and device_id = any(?)")) {
                ps.setString(1, owner);
                ps.setDouble(2, lease.toMillis() / 1000.0);
                ps.setString(3, batch.appId());
                ps.setLong(4, msgId);
                ps.setArray(5, Database.bigints(c, claimable.stream().mapToLong(Long::longValue).sorted().toArray()));
                ps.executeUpdate();
            }
        }
        claimable.forEach(d -> held.add(new Key(batch.appId(), msgId, d)));
        return new Claimed(claimable, heldElsewhere);
    }

    /**
     * Records each claimed device's outcome and the day's counts in one transaction; a device this worker no longer
     * holds (its lease lapsed and another took it over) is not counted here. Answers the devices counted sent.
     */
    int finish(PushBatch batch, Set<Long> devices, Tally tally, String channel) {
        long msgId = batch.offline().msgId();
        devices.forEach(d -> held.remove(new Key(batch.appId(), msgId, d)));
        return database.inTransaction(c -> {
            int sent = 0;
            long failed = 0;
            long rejected = 0;
            try (PreparedStatement ps = c.prepareStatement("update offline_push_trace set state = ?, reason = ?,"
                    + " sent_at = case when ? then now() else sent_at end, lease_until = null"
                    + " where app_id = ? and msg_id = ? and device_id = ? and state = 'sending' and owner = ?")) {
                for (long device : devices.stream().sorted().toList()) {
                    Tally.DeviceOutcome outcome = tally.deviceOutcomes().getOrDefault(device,
                            new Tally.DeviceOutcome("failed", "no answer recorded"));
                    ps.setString(1, outcome.state());
                    ps.setString(2, outcome.reason());
                    ps.setBoolean(3, "sent".equals(outcome.state()));
                    ps.setString(4, batch.appId());
                    ps.setLong(5, msgId);
                    ps.setLong(6, device);
                    ps.setString(7, owner);
                    if (ps.executeUpdate() == 1) {
                        switch (outcome.state()) {
                            case "sent" -> sent++;
                            case "rejected" -> rejected++;
                            default -> failed++;
                        }
                    }
                }
            }
            if (sent + failed + rejected > 0) {
                try (PreparedStatement ps = c.prepareStatement("insert into offline_push_daily as d (app_id, day,"
                        + " channel, slot, sent, failed, rejected) values (?, (now() at time zone 'UTC')::date, ?,"
                        + " floor(random() * " + DAILY_SLOTS + ")::smallint, ?, ?, ?)"
                        + " on conflict (app_id, day, channel, slot) do update set sent = d.sent + excluded.sent,"
                        + " failed = d.failed + excluded.failed, rejected = d.rejected + excluded.rejected")) {
                    ps.setString(1, batch.appId());
                    ps.setString(2, channel);
                    ps.setLong(3, sent);
                    ps.setLong(4, failed);
                    ps.setLong(5, rejected);
                    ps.executeUpdate();
                }
            }
            BatchLedger.unbind(c, tally.rejectedTokens());
            return sent;
        });
    }

    /** Gives the claims up without counting (stopping, or a failure): the record is read again. */
    void release(PushBatch batch, Set<Long> devices) {
        long msgId = batch.offline().msgId();
        devices.forEach(d -> held.remove(new Key(batch.appId(), msgId, d)));
        try {
            database.inTransaction(c -> {
                update(c, batch.appId(), msgId, devices, "lease_until = now()");
                return null;
            });
        } catch (RuntimeException e) { // the lease lapses by itself
            LOG.debugf("offline push of message %d: claims not released: %s", msgId, e.getMessage());
        }
    }

    /** Extends the leases of these devices' claims, this replica's (the {@link ClaimLeases} renewal). */
    private void renew(Connection c, List<Key> mine) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update offline_push_trace t set lease_until = now()"
                + " + make_interval(secs => ?) from unnest(?::text[], ?::bigint[], ?::bigint[])"
                + " as h(app_id, msg_id, device_id) where t.app_id = h.app_id and t.msg_id = h.msg_id"
                + " and t.device_id = h.device_id and t.owner = ? and t.state = 'sending'")) {
            ps.setDouble(1, lease.toMillis() / 1000.0);
            ps.setArray(2, c.createArrayOf("text", mine.stream().map(Key::appId).toArray()));
            ps.setArray(3, Database.bigints(c, mine.stream().mapToLong(Key::msgId).toArray()));
            ps.setArray(4, Database.bigints(c, mine.stream().mapToLong(Key::deviceId).toArray()));
            ps.setString(5, owner);
            ps.executeUpdate();
        }
    }

    /** Sets {@code assignments} on the message's rows of these devices. */
    private static void update(Connection c, String appId, long msgId, Set<Long> devices, String assignments)
            throws SQLException {
        if (devices.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("update offline_push_trace set " + assignments
                + " where app_id = ? and msg_id = ? and device_id = any(?)")) {
            ps.setString(1, appId);
            ps.setLong(2, msgId);
            Array ids = Database.bigints(c, devices.stream().mapToLong(Long::longValue).sorted().toArray());
            ps.setArray(3, ids);
            ps.executeUpdate();
        }
    }

    /** An offline push's badges: each device's user's unread count, from the record's {@code badges}. */
    static Map<Long, Integer> badges(PushBatch batch) {
        Map<Long, Integer> badges = new java.util.HashMap<>();
        batch.message().path("badges").fields().forEachRemaining(e -> {
            if (e.getValue().canConvertToInt()) {
                badges.put(Long.parseLong(e.getKey()), e.getValue().intValue());
            }
        });
        return badges;
    }
}
