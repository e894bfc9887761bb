package io.imcore.common.push;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Counts delivery confirmations into {@code <channel>_received}, at most once per task and device (push_receipts),
 * however often a device acks or a provider calls back. Used by push-worker (svcpush acks from push.receipts) and
 * push-service (provider receipt callbacks). Unknown tasks, devices and tokens count nothing.
 */
public final class Receipts {

    private static final String COUNT = ", r as (insert into push_receipts (task_id, device_id, channel)"
            + " select t.task_id, d.device_id, ? from d join push_tasks t on t.task_id = ?"
            + " on conflict do nothing returning channel)"
            + " insert into push_task_counts (task_id, channel, received) select ?, channel, 1 from r"
            + " on conflict (task_id, channel) do update set received = push_task_counts.received + 1";

    private Receipts() {}

    /** A device's acknowledgement (svcpush), the device named by app, user and device_sn. True when it counted. */
    public static boolean byDevice(Connection c, long taskId, Channel channel, String appId, long userId,
            int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("with d as (select device_id from push_devices"
                + " where app_id = ? and user_id = ? and device_sn = ?)" + COUNT)) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            return count(ps, 4, taskId, channel);
        }
    }

    /** A provider's delivery receipt, the device named by its token on the channel. True when it counted. */
    public static boolean byToken(Connection c, long taskId, Channel channel, String token) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("with d as (select k.device_id from push_device_tokens k"
                + " join push_tasks t on t.app_id = k.app_id and t.task_id = ? where k.channel = ? and k.token = ?)"
                + COUNT)) {
            ps.setLong(1, taskId);
            ps.setString(2, channel.wireName());
            ps.setString(3, token);
            return count(ps, 4, taskId, channel);
        }
    }

    private static boolean count(PreparedStatement ps, int index, long taskId, Channel channel) throws SQLException {
        ps.setString(index, channel.wireName());
        ps.setLong(index + 1, taskId);
        ps.setLong(index + 2, taskId);
        return ps.executeUpdate() == 1;
    }
}
