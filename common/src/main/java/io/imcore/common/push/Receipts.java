package io.imcore.common.push;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

/**
 * Counts delivery confirmations into {@code <channel>_received}, at most once per task and device (push_receipts),
 * however often a device acks or a provider calls back. Used by push-worker (svcpush acks from push.receipts) and
 * push-service (provider receipt callbacks). Unknown tasks, devices and tokens count nothing.
 *
 * <p>A whole callback or poll is one statement, so the counter rows it raises are locked only for that statement:
 * push-worker's batch commits raise the same rows. The statement reads each distinct task once ({@code t}, a
 * materialized CTE): joined per receipt, the planner probed push_tasks once per receipt, and a running task's row
 * is updated once per batch, so each probe walked its dead index entries (16 buffers per probe, half of a
 * callback's buffers: docs/benchmarks-history.md "The accept in one statement, and receipts reading each task once").
 */
public final class Receipts {

    /** A device's ack, the device named by app, user and device_sn. */
    public record DeviceAck(long taskId, String appId, long userId, int deviceSn) {}

    /** A provider's receipt, the device named by its token on the channel. */
    public record TokenReceipt(long taskId, String token) {}

    /** The receipts' tasks, each read once (the first parameter: their distinct ids). */
    private static final String TASKS = "with t as materialized (select task_id, app_id from push_tasks"
            + " where task_id = any(?::bigint[]))";

    private static final String COUNT = ", r as (insert into push_receipts (task_id, device_id, channel)"
            + " select distinct d.task_id, d.device_id, ? from d on conflict do nothing returning task_id),"
            + " n as (select task_id, count(*) as k from r group by task_id),"
            + " u as (insert into push_task_counts (task_id, channel, received) select task_id, ?, k from n"
            + " order by task_id on conflict (task_id, channel)"
            + " do update set received = push_task_counts.received + excluded.received)"
            + " select coalesce(sum(k), 0) from n";

    private Receipts() {}

    /** Counts svcpush acks; returns how many counted. */
    public static int countAcks(Connection c, Channel channel, List<DeviceAck> acks) throws SQLException {
        if (acks.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(TASKS + ", i as (select * from unnest(?::bigint[], ?::text[],"
                + " ?::bigint[], ?::int[]) as i(task_id, app_id, user_id, device_sn)),"
                + " d as (select t.task_id, v.device_id from i join t on t.task_id = i.task_id"
                + " and t.app_id = i.app_id join push_devices v on v.app_id = i.app_id and v.user_id = i.user_id"
                + " and v.device_sn = i.device_sn)" + COUNT)) {
            ps.setArray(1, distinctTasks(c, acks.stream().map(DeviceAck::taskId)));
            ps.setArray(2, array(c, "bigint", acks.stream().map(DeviceAck::taskId).toArray()));
            ps.setArray(3, array(c, "text", acks.stream().map(DeviceAck::appId).toArray()));
            ps.setArray(4, array(c, "bigint", acks.stream().map(DeviceAck::userId).toArray()));
            ps.setArray(5, array(c, "int", acks.stream().map(DeviceAck::deviceSn).toArray()));
            return count(ps, 6, channel);
        }
    }

    /** Counts a provider's delivery receipts on the channel; returns how many counted. */
    public static int countTokens(Connection c, Channel channel, List<TokenReceipt> receipts) throws SQLException {
        if (receipts.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(TASKS + ", i as (select * from unnest(?::bigint[], ?::text[])"
                + " as i(task_id, token)),"
                + " d as (select t.task_id, k.device_id from i join t on t.task_id = i.task_id"
                + " join push_device_tokens k on k.app_id = t.app_id and k.channel = ? and k.token = i.token)"
                + COUNT)) {
            ps.setArray(1, distinctTasks(c, receipts.stream().map(TokenReceipt::taskId)));
            ps.setArray(2, array(c, "bigint", receipts.stream().map(TokenReceipt::taskId).toArray()));
            ps.setArray(3, array(c, "text", receipts.stream().map(TokenReceipt::token).toArray()));
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

    private static Array distinctTasks(Connection c, Stream<Long> taskIds) throws SQLException {
        return array(c, "bigint", taskIds.distinct().toArray());
    }

    private static Array array(Connection c, String type, Object[] values) throws SQLException {
        return c.createArrayOf(type, values);
    }
}
