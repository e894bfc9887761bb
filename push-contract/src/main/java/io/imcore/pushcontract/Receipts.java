package io.imcore.pushcontract;

import io.imcore.common.store.Database;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Delivery confirmations of tasks, counted into {@code <channel>_received} only for (task, device) pairs push-worker
 * sent, at most once each, however often a device acks or a provider calls back (docs/push-worker.md "received").
 *
 * <p>push_receipts is the ledger: push-worker writes a row ({@code received = false}) for every target of a task
 * batch when it claims the batch on a channel that reports deliveries ({@link #expect}, before anything is sent, so
 * that no receipt can arrive before its row), and deletes the rows of the targets that were not sent when it counts
 * the batch ({@link #forget}). A receipt counts by turning such a row received: a device the task never targeted, a
 * task of another app (the device is looked up in the receipt's app), an unknown token and a repeat count nothing.
 * Used by push-worker (svcpush acks from push.receipts) and push-service (provider receipt callbacks).
 *
 * <p>A whole callback or poll is one statement, so the counter rows it raises are locked only for that statement:
 * push-worker's batch commits raise the same rows. Every table is reached through an index whatever it holds:
 * the devices by their unique (app, channel, token) or (app, user, device_sn) keys, the ledger rows by their primary
 * key ({@code ReceiptPlansTest} in push-service checks the plans on a seeded database).
 */
public final class Receipts {

    /** A device's ack, the device named by app, user and device_sn. */
    public record DeviceAck(long taskId, String appId, long userId, int deviceSn) {}

    /** A provider's receipt, the device named by its token on the channel. */
    public record TokenReceipt(long taskId, String token) {}

    /**
     * The ledger rows of the receipts' pairs ({@code d}) still not received, locked in key order (two callbacks
     * naming the same devices cannot deadlock), turned received on the receipt's channel (a svcpush target may have
     * been sent on an OS channel instead), and counted per task.
     */
    private static final String COUNT = ", l as (select p.task_id, p.device_id from push_receipts p"
            + " join d on p.task_id = d.task_id and p.device_id = d.device_id where not p.received"
            + " order by p.task_id, p.device_id for update of p),"
            + " r as (update push_receipts p set received = true, received_at = now(), channel = ? from l"
            + " where p.task_id = l.task_id and p.device_id = l.device_id and not p.received returning p.task_id),"
            + " n as (select task_id, count(*) as k from r group by task_id),"
            + " u as (insert into push_task_counts (task_id, channel, received) select task_id, ?, k from n"
            + " order by task_id on conflict (task_id, channel)"
            + " do update set received = push_task_counts.received + excluded.received)"
            + " select coalesce(sum(k), 0) from n";

    /** The statement of {@link #countAcks}; public for the plan check. */
    public static final String COUNT_ACKS = "with i as (select distinct * from unnest(?::bigint[], ?::text[],"
            + " ?::bigint[], ?::int[]) as i(task_id, app_id, user_id, device_sn)),"
            + " d as (select i.task_id, v.device_id from i join push_devices v on v.app_id = i.app_id"
            + " and v.user_id = i.user_id and v.device_sn = i.device_sn)" + COUNT;

    /** The statement of {@link #countTokens}; public for the plan check. */
    public static final String COUNT_TOKENS = "with i as (select distinct * from unnest(?::bigint[], ?::text[])"
            + " as i(task_id, token)),"
            + " d as (select i.task_id, k.device_id from i join push_device_tokens k on k.app_id = ?"
            + " and k.channel = ? and k.token = i.token)" + COUNT;

    private Receipts() {}

    /**
     * Opens the ledger rows of a task batch's targets on its channel (none on a channel without delivery receipts);
     * rows already there (a resumed batch) are kept as they are.
     */
    public static void expect(Connection c, long taskId, Channel channel, long[] deviceIds) throws SQLException {
        if (!channel.reportsDeliveries() || deviceIds.length == 0) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("insert into push_receipts (task_id, device_id, channel,"
                + " received) select ?, d, ?, false from unnest(?::bigint[]) as d order by d on conflict do nothing")) {
            ps.setLong(1, taskId);
            ps.setString(2, channel.wireName());
            ps.setArray(3, Database.bigints(c, deviceIds));
            ps.executeUpdate();
        }
    }

    /** Closes the ledger rows of a task's targets that were not sent (failed, rejected, expired) and not received. */
    public static void forget(Connection c, long taskId, long[] deviceIds) throws SQLException {
        if (deviceIds.length == 0) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("delete from push_receipts where task_id = ?"
                + " and device_id = any(?::bigint[]) and not received")) {
            ps.setLong(1, taskId);
            ps.setArray(2, Database.bigints(c, deviceIds));
            ps.executeUpdate();
        }
    }

    /** Counts svcpush acks; returns how many counted. */
    public static int countAcks(Connection c, Channel channel, List<DeviceAck> acks) throws SQLException {
        if (acks.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(COUNT_ACKS)) {
            ps.setArray(1, array(c, "bigint", acks.stream().map(DeviceAck::taskId).toArray()));
            ps.setArray(2, array(c, "text", acks.stream().map(DeviceAck::appId).toArray()));
            ps.setArray(3, array(c, "bigint", acks.stream().map(DeviceAck::userId).toArray()));
            ps.setArray(4, array(c, "int", acks.stream().map(DeviceAck::deviceSn).toArray()));
            return count(ps, 5, channel);
        }
    }

    /** Counts a provider's delivery receipts of the app's tasks on the channel; returns how many counted. */
    public static int countTokens(Connection c, String appId, Channel channel, List<TokenReceipt> receipts)
            throws SQLException {
        if (receipts.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(COUNT_TOKENS)) {
            ps.setArray(1, array(c, "bigint", receipts.stream().map(TokenReceipt::taskId).toArray()));
            ps.setArray(2, array(c, "text", receipts.stream().map(TokenReceipt::token).toArray()));
            ps.setString(3, appId);
            ps.setString(4, channel.wireName());
            return count(ps, 5, channel);
        }
    }

    private static int count(PreparedStatement ps, int index, Channel channel) throws SQLException {
        ps.setString(index, channel.wireName());
        ps.setString(index + 1, channel.wireName());
        try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static Array array(Connection c, String type, Object[] values) throws SQLException {
        return c.createArrayOf(type, values);
    }
}
