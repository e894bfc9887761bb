package io.imcore.push.fanout;

import io.imcore.common.push.Channel;
import io.imcore.common.push.PushBatch.OsRoute;
import io.imcore.common.store.Database;
import io.imcore.push.notify.Audience;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Optional;

/**
 * Streams a task's audience in device_id order, one page per call, so that no audience (not even {@code all} over
 * millions of devices) is ever held in memory. Users who opted out, and users auth-service disabled, are not part
 * of any audience.
 */
final class AudiencePages {

    /**
     * The page's devices first (in the (app_id, device_id) index order), then per device its presence and its bound
     * tokens, one row per token. {@code offset 0} keeps those two as per-device index look-ups: flattened, the
     * planner hash-joins the whole presence and token tables for every page. deploy/bench/push.sh explains a copy.
     */
    private static final String PAGE = "with page as (select d.device_id, d.user_id, d.device_sn from push_devices d"
            + " where d.app_id = ? and d.device_id > ?%s"
            + " and not exists (select 1 from push_users u"
            + "   where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)"
            + " and not exists (select 1 from auth_view_users v"
            + "   where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)"
            + " order by d.app_id, d.device_id limit ?)"
            + " select g.device_id, g.user_id, g.device_sn, coalesce(p.online, false),"
            + " k.channel, k.token, k.notifier_name, k.environment"
            + " from page g"
            + " left join lateral (select p.online from push_presence p"
            + "   where p.app_id = ? and p.user_id = g.user_id and p.device_sn = g.device_sn offset 0) p on true"
            + " left join lateral (select k.channel, k.token, k.notifier_name, k.environment from push_device_tokens k"
            + "   where k.device_id = g.device_id offset 0) k on true"
            + " order by g.device_id";

    private AudiencePages() {}

    /** The next page of at most {@code limit} devices after {@code cursor}. */
    static List<DeviceRow> next(Connection c, String appId, Audience audience, long cursor, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(PAGE.formatted(filter(audience.form())))) {
            int i = 1;
            ps.setString(i++, appId);
            ps.setLong(i++, cursor);
            switch (audience.form()) {
                case ALL -> { }
                case USER_ID -> ps.setArray(i++, Database.bigints(c,
                        audience.userIds().stream().mapToLong(Long::longValue).toArray()));
                default -> ps.setArray(i++, c.createArrayOf("text", audience.values().toArray()));
            }
            ps.setInt(i++, limit);
            ps.setString(i, appId);
            List<DeviceRow> rows = new ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
                DeviceRow device = null;
                while (rs.next()) {
                    long deviceId = rs.getLong(1);
                    if (device == null || device.deviceId() != deviceId) {
                        device = new DeviceRow(deviceId, rs.getLong(2), rs.getInt(3), rs.getBoolean(4),
                                new EnumMap<>(Channel.class));
                        rows.add(device);
                    }
                    String channel = rs.getString(5);
                    Optional<Channel> known = channel == null ? Optional.empty() : Channel.fromWireName(channel);
                    if (known.isPresent()) {
                        device.osRoutes().put(known.get(),
                                new OsRoute(channel, rs.getString(6), rs.getString(7), rs.getInt(8)));
                    }
                }
            }
            return rows;
        }
    }

    private static String filter(Audience.Form form) {
        return switch (form) {
            case ALL -> "";
            case USER_ID -> " and d.user_id = any(?)";
            case PUSH_TOKEN -> " and d.push_token = any(?)";
            case ALIAS -> " and d.alias = any(?)";
            case TAG -> " and d.user_id in (select t.user_id from push_user_tags t"
                    + " where t.app_id = d.app_id and t.tag = any(?))";
        };
    }
}
