package io.imcore.push.offlinepush;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.OsRoute;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The offline push tables of push-service (migration V9): settings, mutes, the trace rows push-service writes. */
@ApplicationScoped
public class OfflinePushStore {

    /** An app's offline push: on only while push itself is on. */
    public record AppSettings(boolean pushEnabled, boolean enabled, String language) {}

    /** A user's settings; {@link #DEFAULT} for a user who set nothing. */
    public record UserSettings(String displayName, boolean showPreview, Integer dndStart, Integer dndEnd,
            String timeZone) {
        public static final UserSettings DEFAULT = new UserSettings(null, true, null, null, "UTC");
    }

    /** A recipient's device with its bound OS routes, and whether the user opted out of push. */
    record Device(long deviceId, long userId, int deviceSn, boolean optedOut, Map<Channel, OsRoute> routes) {}

    /** A trace row to insert. */
    record TraceRow(long msgId, long userId, int deviceSn, Long deviceId, String conversation, String decision, String channel,
            String state) {}

    public AppSettings appSettings(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select coalesce(a.push_enabled, false),"
                + " coalesce(s.enabled, true), coalesce(s.language, 'en') from (select ?::text as app_id) q"
                + " left join push_apps a on a.app_id = q.app_id left join push_offline_settings s on s.app_id = q.app_id")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new AppSettings(rs.getBoolean(1), rs.getBoolean(2), rs.getString(3));
            }
        }
    }

    public void saveAppSettings(Connection c, String appId, Boolean enabled, String language) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_offline_settings (app_id, enabled, language)"
                + " values (?, coalesce(?, true), coalesce(?, 'en')) on conflict (app_id) do update set"
                + " enabled = coalesce(?, push_offline_settings.enabled),"
                + " language = coalesce(?, push_offline_settings.language)")) {
            ps.setString(1, appId);
            ps.setObject(2, enabled);
            ps.setString(3, language);
            ps.setObject(4, enabled);
            ps.setString(5, language);
            ps.executeUpdate();
        }
    }

    public Map<Long, UserSettings> userSettings(Connection c, String appId, long[] userIds) throws SQLException {
        Map<Long, UserSettings> settings = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select user_id, display_name, show_preview, dnd_start, dnd_end,"
                + " time_zone from push_user_settings where app_id = ? and user_id = any(?)")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, userIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    settings.put(rs.getLong(1), new UserSettings(rs.getString(2), rs.getBoolean(3),
                            (Integer) rs.getObject(4, Integer.class), (Integer) rs.getObject(5, Integer.class),
                            rs.getString(6)));
                }
            }
        }
        return settings;
    }

    public void saveUserSettings(Connection c, String appId, long userId, UserSettings s) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_user_settings (app_id, user_id, display_name,"
                + " show_preview, dnd_start, dnd_end, time_zone) values (?, ?, ?, ?, ?, ?, ?)"
                + " on conflict (app_id, user_id) do update set display_name = excluded.display_name,"
                + " show_preview = excluded.show_preview, dnd_start = excluded.dnd_start, dnd_end = excluded.dnd_end,"
                + " time_zone = excluded.time_zone")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setString(3, s.displayName());
            ps.setBoolean(4, s.showPreview());
            ps.setObject(5, s.dndStart());
            ps.setObject(6, s.dndEnd());
            ps.setString(7, s.timeZone());
            ps.executeUpdate();
        }
    }

    /** The muted conversations of the users, as {@code user_id -> conversation ids}. */
    public Map<Long, Set<Long>> mutes(Connection c, String appId, long[] userIds) throws SQLException {
        Map<Long, Set<Long>> mutes = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select user_id, conversation_id from push_conversation_mutes"
                + " where app_id = ? and user_id = any(?)")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, userIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    mutes.computeIfAbsent(rs.getLong(1), u -> new HashSet<>()).add(rs.getLong(2));
                }
            }
        }
        return mutes;
    }

    public void setMute(Connection c, String appId, long userId, long conversationId, boolean mute)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(mute
                ? "insert into push_conversation_mutes (app_id, user_id, conversation_id) values (?, ?, ?)"
                        + " on conflict do nothing"
                : "delete from push_conversation_mutes where app_id = ? and user_id = ? and conversation_id = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setLong(3, conversationId);
            ps.executeUpdate();
        }
    }

    /** The users' devices in device_sn order, each with its bound provider tokens. */
    List<Device> devices(Connection c, String appId, long[] userIds) throws SQLException {
        Map<Long, Device> devices = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("select d.device_id, d.user_id, d.device_sn,"
                + " coalesce(u.push_disabled, false), t.channel, t.token, t.notifier_name, t.environment"
                + " from push_devices d left join push_device_tokens t on t.device_id = d.device_id"
                + " left join push_users u on u.app_id = d.app_id and u.user_id = d.user_id"
                + " where d.app_id = ? and d.user_id = any(?) order by d.user_id, d.device_sn")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, userIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long deviceId = rs.getLong(1);
                    Device device = devices.computeIfAbsent(deviceId, id -> {
                        try {
                            return new Device(id, rs.getLong(2), rs.getInt(3), rs.getBoolean(4),
                                    new EnumMap<>(Channel.class));
                        } catch (SQLException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    String channel = rs.getString(5);
                    if (channel != null) {
                        Channel.fromWireName(channel).ifPresent(ch -> {
                            try {
                                device.routes().put(ch, new OsRoute(channel, rs.getString(6), rs.getString(7),
                                        rs.getInt(8)));
                            } catch (SQLException e) {
                                throw new IllegalStateException(e);
                            }
                        });
                    }
                }
            }
        }
        return new ArrayList<>(devices.values());
    }

    /** A device that was notified of a recalled message and shows it still: the replacement goes to it. */
    record Shown(long msgId, long userId, int deviceSn, long deviceId, String conversation) {}

    /**
     * The recalled messages' notifications: those still queued are superseded (never sent), and the devices that
     * were sent one (or are being sent one) and have no newer notification of the conversation are returned, for the
     * replacement. {@code noticeIds[i]} is message {@code msgIds[i]}'s replacement, which does not count as newer (a
     * redelivered recall finds its own). The queued rows are locked in push-worker's claim order.
     */
    List<Shown> recalled(Connection c, String appId, long[] msgIds, long[] noticeIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("with q as (select t.app_id, t.msg_id, t.device_id"
                + " from offline_push_trace t where t.app_id = ? and t.msg_id = any(?) and t.device_id is not null"
                + " and t.state = 'queued' order by t.msg_id, t.device_id for update)"
                + " update offline_push_trace t set state = 'superseded', reason = 'recalled before it was sent'"
                + " from q where t.app_id = q.app_id and t.msg_id = q.msg_id and t.device_id = q.device_id")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, msgIds));
            ps.executeUpdate();
        }
        List<Shown> shown = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select t.msg_id, t.user_id, t.device_sn, t.device_id,"
                + " t.conversation from unnest(?::bigint[], ?::bigint[]) as r(msg_id, notice_id)"
                + " join offline_push_trace t on t.app_id = ? and t.msg_id = r.msg_id"
                + " where t.device_id is not null and t.state in ('sending', 'sent')"
                + " and not exists (select 1 from offline_push_trace n where n.device_id = t.device_id"
                + " and n.conversation = t.conversation and n.msg_id > t.msg_id and n.msg_id <> r.notice_id"
                + " and n.state in ('queued', 'sending', 'sent'))")) {
            ps.setArray(1, Database.bigints(c, msgIds));
            ps.setArray(2, Database.bigints(c, noticeIds));
            ps.setString(3, appId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    shown.add(new Shown(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getLong(4), rs.getString(5)));
                }
            }
        }
        return shown;
    }

    /** The recipients of one message who have no device at all (decision {@code no_device}). */
    record NoDevice(long msgId, String conversation, List<Long> userIds) {}

    /**
     * Stores each message's recipients without a device as one row (not a trace row each: a group's members without
     * phones would be hundreds per message); a redelivered event's row is there already.
     */
    void insertNoDevice(Connection c, String appId, List<NoDevice> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("insert into offline_push_no_device (app_id, msg_id,"
                + " conversation, user_ids) select ?, t.msg_id, t.conversation, string_to_array(t.users, ',')::bigint[]"
                + " from unnest(?::bigint[], ?::text[], ?::text[]) as t(msg_id, conversation, users)"
                + " on conflict (app_id, msg_id) do nothing")) {
            ps.setString(1, appId);
            ps.setArray(2, c.createArrayOf("bigint", rows.stream().map(NoDevice::msgId).toArray()));
            ps.setArray(3, c.createArrayOf("text", rows.stream().map(NoDevice::conversation).toArray()));
            ps.setArray(4, c.createArrayOf("text", rows.stream().map(r -> r.userIds().stream().map(String::valueOf)
                    .collect(Collectors.joining(","))).toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * Writes decisions; a row that exists is left alone, except that an unacknowledged live delivery
     * ({@code replace}) turns a row still {@code decided} into the new decision. The rows to send are read back with
     * {@link #queued}, so a redelivered event sends what a crash left queued. {@code replace} rows must be distinct.
     */
    void insertTrace(Connection c, String appId, List<TraceRow> rows, boolean replace) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        int n = rows.size();
        Long[] msgIds = new Long[n];
        Long[] users = new Long[n];
        Integer[] sns = new Integer[n];
        Long[] deviceIds = new Long[n];
        String[] conversations = new String[n];
        String[] decisions = new String[n];
        String[] channels = new String[n];
        String[] states = new String[n];
        for (int i = 0; i < n; i++) {
            TraceRow r = rows.get(i);
            msgIds[i] = r.msgId();
            users[i] = r.userId();
            sns[i] = r.deviceSn();
            deviceIds[i] = r.deviceId();
            conversations[i] = r.conversation();
            decisions[i] = r.decision();
            channels[i] = r.channel();
            states[i] = r.state();
        }
        try (PreparedStatement ps = c.prepareStatement("insert into offline_push_trace (app_id, msg_id, user_id,"
                + " device_sn, device_id, conversation, decision, channel, state) select ?, t.* from"
                + " unnest(?::bigint[], ?::bigint[], ?::int[], ?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[])"
                + " as t(msg_id, user_id, device_sn, device_id, conversation, decision, channel, state)"
                + " order by t.msg_id, t.user_id, t.device_sn" // the rows' lock order, as push-worker's
                + " on conflict (app_id, msg_id, user_id, device_sn) do "
                + (replace ? "update set decision = excluded.decision, channel = excluded.channel,"
                        + " state = excluded.state where offline_push_trace.state = 'decided'" : "nothing"))) {
            ps.setString(1, appId);
            ps.setArray(2, c.createArrayOf("bigint", msgIds));
            ps.setArray(3, c.createArrayOf("bigint", users));
            ps.setArray(4, c.createArrayOf("integer", sns));
            ps.setArray(5, c.createArrayOf("bigint", deviceIds));
            ps.setArray(6, c.createArrayOf("text", conversations));
            ps.setArray(7, c.createArrayOf("text", decisions));
            ps.setArray(8, c.createArrayOf("text", channels));
            ps.setArray(9, c.createArrayOf("text", states));
            ps.executeUpdate();
        }
    }

    /** The messages' devices still queued for an OS channel (not yet claimed by push-worker), as "msg_id:device_id". */
    Set<String> queued(Connection c, String appId, long[] msgIds) throws SQLException {
        Set<String> keys = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("select msg_id, device_id from offline_push_trace"
                + " where app_id = ? and msg_id = any(?) and state = 'queued'")) {
            ps.setString(1, appId);
            ps.setArray(2, Database.bigints(c, msgIds));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    keys.add(rs.getLong(1) + ":" + rs.getLong(2));
                }
            }
        }
        return keys;
    }
}
