package io.imcore.push.receipt;

import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts.TokenReceipt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * Provider receipts of offline pushes (docs/offline-push.md): push-worker gives the adapters {@code -msg_id} as the
 * task id, so a receipt whose task id is negative names a chat message. The device is the one the token is bound to
 * on the channel in the receipt's app; its trace row of the message on that channel, once push-worker claimed it for
 * sending ({@code sending}, the receipt may come before the send is counted, or {@code sent}), gets
 * {@code received_at} once, and {@code offline_push_daily.received} of the app, today (UTC) and the channel (one of
 * its slots) is raised by the rows that got it, in the same statement. Repeats, unknown tokens, devices the message
 * was not sent to and other apps' messages count nothing.
 */
final class OfflineReceipts {

    /**
     * One statement: the receipts' devices (a token is unique per app and channel: the unique index), their trace
     * rows still without received_at (primary key prefix: app, message), locked in the order push-worker's finish
     * locks them (app, message, device) so the two cannot deadlock, then stamped and counted. Package-visible for the plan
     * check ({@code ReceiptPlansTest}).
     */
    static final String COUNT = "with i as (select distinct * from unnest(?::bigint[], ?::text[])"
            + " as i(msg_id, token)),"
            + " d as (select distinct i.msg_id, k.device_id from i join push_device_tokens k"
            + " on k.app_id = ? and k.channel = ? and k.token = i.token),"
            + " l as (select t.app_id, t.msg_id, t.user_id, t.device_sn from offline_push_trace t"
            + " join d on t.app_id = ? and t.msg_id = d.msg_id and t.device_id = d.device_id"
            + " where t.channel = ? and t.state in ('sending', 'sent') and t.received_at is null"
            + " order by t.app_id, t.msg_id, t.device_id for update of t),"
            + " u as (update offline_push_trace t set received_at = now() from l where t.app_id = l.app_id"
            + " and t.msg_id = l.msg_id and t.user_id = l.user_id and t.device_sn = l.device_sn"
            + " and t.received_at is null returning t.app_id),"
            + " n as (select count(*) as k from u),"
            + " x as (insert into offline_push_daily as o (app_id, day, channel, slot, received)"
            + " select ?, (now() at time zone 'UTC')::date, ?, floor(random() * 16)::smallint, k from n where k > 0"
            + " on conflict (app_id, day, channel, slot) do update set received = o.received + excluded.received)"
            + " select k from n";

    private OfflineReceipts() {}

    /** Counts receipts whose task id is {@code -msg_id}; returns how many devices counted as received now. */
    static int count(Connection c, String appId, Channel channel, List<TokenReceipt> receipts) throws SQLException {
        if (receipts.isEmpty()) {
            return 0;
        }
        try (PreparedStatement ps = c.prepareStatement(COUNT)) {
            ps.setArray(1, c.createArrayOf("bigint", receipts.stream().map(r -> -r.taskId()).toArray()));
            ps.setArray(2, c.createArrayOf("text", receipts.stream().map(TokenReceipt::token).toArray()));
            ps.setString(3, appId);
            ps.setString(4, channel.wireName());
            ps.setString(5, appId);
            ps.setString(6, channel.wireName());
            ps.setString(7, appId);
            ps.setString(8, channel.wireName());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
