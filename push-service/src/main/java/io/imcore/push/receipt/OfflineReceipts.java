package io.imcore.push.receipt;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.Receipts.TokenReceipt;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Provider receipts of offline pushes (docs/offline-push.md): push-worker gives the adapters {@code -msg_id} as the
 * task id, so a receipt whose task id is negative names a chat message. The device is the one the token is bound to
 * on the channel in the receipt's app; its trace row of the message on that channel, once push-worker claimed it for
 * sending ({@code sending}, the receipt may come before the send is counted, or {@code sent}), gets
 * {@code received_at} once, and {@code offline_push_daily.received} of the app, today (UTC) and the channel (one of
 * its slots) is raised by the rows that got it, in the same statement. Repeats, unknown tokens, devices the message
 * was not sent to and other apps' messages count nothing. The callbacks that arrive together are counted in one
 * statement ({@link ReceiptService}'s group commit).
 */
final class OfflineReceipts {

    /** One provider callback's offline receipts, of one app and channel. */
    record Callback(String appId, Channel channel, List<TokenReceipt> receipts) {}

    /**
     * One statement for several callbacks, every row reached by its whole key whatever the tables hold: the token's
     * device by the unique (app, channel, token) index (a scalar subquery, so the planner cannot turn it into a scan
     * of the app's tokens), the device's user and number by push_devices' primary key, all of that materialized
     * first so that the trace rows are looked up and stamped by (app, message, device) with the device known: a
     * group message has a trace row per member's device, and a plan that reached them by (app, message) read all of
     * them for each receipt (1,300 blocks per callback on a 500-member group). The trace rows still without
     * received_at are locked in the order push-worker's finish locks them (app, message, device) so the two cannot
     * deadlock, then stamped and counted per app and channel; each stamped row answers its callback
     * ({@code item}). Package-visible for the plan check ({@code ReceiptPlansTest}).
     */
    static final String COUNT = "with i as (select distinct * from unnest(?::int[], ?::text[], ?::text[], ?::bigint[],"
            + " ?::text[]) as i(item, app_id, channel, msg_id, token)),"
            + " d as (select i.item, i.app_id, i.channel, i.msg_id, (select k.device_id from push_device_tokens k"
            + " where k.app_id = i.app_id and k.channel = i.channel and k.token = i.token) as device_id from i),"
            + " p as materialized (select d.item, d.app_id, d.channel, d.msg_id, d.device_id, v.user_id, v.device_sn"
            + " from d join push_devices v on v.device_id = d.device_id),"
            + " l as (select p.item, t.app_id, t.msg_id, t.user_id, t.device_sn, t.device_id"
            + " from offline_push_trace t join p on t.app_id = p.app_id and t.msg_id = p.msg_id"
            + " and t.user_id = p.user_id and t.device_sn = p.device_sn"
            + " where t.device_id = p.device_id and t.channel = p.channel and t.state in ('sending', 'sent')"
            + " and t.received_at is null order by t.app_id, t.msg_id, t.device_id for update of t),"
            + " u as (update offline_push_trace t set received_at = now() from l where t.app_id = l.app_id"
            + " and t.msg_id = l.msg_id and t.user_id = l.user_id and t.device_sn = l.device_sn"
            + " and t.device_id = l.device_id"
            + " and t.received_at is null returning l.item, t.app_id, t.channel),"
            + " n as (select app_id, channel, count(*) as k from u group by app_id, channel),"
            + " x as (insert into offline_push_daily as o (app_id, day, channel, slot, received)"
            + " select app_id, (now() at time zone 'UTC')::date, channel, floor(random() * 16)::smallint, k from n"
            + " on conflict (app_id, day, channel, slot) do update set received = o.received + excluded.received)"
            + " select item, count(*) from u group by item";

    private OfflineReceipts() {}

    /** Counts the callbacks' receipts; answers, per callback in order, how many devices counted as received now. */
    static List<Integer> count(Connection c, List<Callback> callbacks) throws SQLException {
        List<Integer> items = new ArrayList<>();
        List<String> apps = new ArrayList<>();
        List<String> channels = new ArrayList<>();
        List<Long> messages = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        for (int item = 0; item < callbacks.size(); item++) {
            Callback callback = callbacks.get(item);
            for (TokenReceipt receipt : callback.receipts()) {
                items.add(item);
                apps.add(callback.appId());
                channels.add(callback.channel().wireName());
                messages.add(-receipt.taskId());
                tokens.add(receipt.token());
            }
        }
        Integer[] counted = new Integer[callbacks.size()];
        Arrays.fill(counted, 0);
        if (items.isEmpty()) {
            return List.of(counted);
        }
        try (PreparedStatement ps = c.prepareStatement(COUNT)) {
            ps.setArray(1, c.createArrayOf("int4", items.toArray()));
            ps.setArray(2, c.createArrayOf("text", apps.toArray()));
            ps.setArray(3, c.createArrayOf("text", channels.toArray()));
            ps.setArray(4, c.createArrayOf("bigint", messages.toArray()));
            ps.setArray(5, c.createArrayOf("text", tokens.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    counted[rs.getInt(1)] = rs.getInt(2);
                }
            }
        }
        return List.of(counted);
    }
}
