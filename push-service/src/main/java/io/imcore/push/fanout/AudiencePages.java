package io.imcore.push.fanout;

import io.imcore.common.push.Channel;
import io.imcore.common.push.PushBatch.OsRoute;
import io.imcore.common.store.Database;
import io.imcore.push.notify.Audience;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Streams a task's audience in device_id order, one page per call, so that no audience (not even {@code all} over
 * millions of devices) is ever held in memory. Users who opted out are not part of any audience.
 */
final class AudiencePages {

    private static final String SELECT = "select d.device_id, d.user_id, d.device_sn, coalesce(p.online, false),"
            + " t.channels, t.tokens, t.notifiers, t.environments"
            + " from push_devices d"
            + " left join push_presence p"
            + "   on p.app_id = d.app_id and p.user_id = d.user_id and p.device_sn = d.device_sn"
            + " left join lateral (select array_agg(k.channel) channels, array_agg(k.token) tokens,"
            + "   array_agg(k.notifier_name) notifiers, array_agg(k.environment) environments"
            + "   from push_device_tokens k where k.device_id = d.device_id) t on true"
            + " where d.app_id = ? and d.device_id > ?"
            + " and not exists (select 1 from push_users u"
            + "   where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)";

    private AudiencePages() {}

    /** The next page of at most {@code limit} devices after {@code cursor}. */
    static List<DeviceRow> next(Connection c, String appId, Audience audience, long cursor, int limit)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT + filter(audience.form())
                + " order by d.device_id limit ?")) {
            int i = 1;
            ps.setString(i++, appId);
            ps.setLong(i++, cursor);
            switch (audience.form()) {
                case ALL -> { }
                case USER_ID -> ps.setArray(i++, Database.bigints(c,
                        audience.userIds().stream().mapToLong(Long::longValue).toArray()));
                default -> ps.setArray(i++, c.createArrayOf("text", audience.values().toArray()));
            }
            ps.setInt(i, limit);
            List<DeviceRow> rows = new ArrayList<>(limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new DeviceRow(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getBoolean(4),
                            osRoutes(rs.getArray(5), rs.getArray(6), rs.getArray(7), rs.getArray(8))));
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
            case TAG -> " and d.user_id in (select g.user_id from push_user_tags g"
                    + " where g.app_id = d.app_id and g.tag = any(?))";
        };
    }

    private static Map<Channel, OsRoute> osRoutes(Array channels, Array tokens, Array notifiers, Array environments)
            throws SQLException {
        Map<Channel, OsRoute> routes = new EnumMap<>(Channel.class);
        if (channels == null) {
            return routes;
        }
        Object[] names = (Object[]) channels.getArray();
        Object[] tokenValues = (Object[]) tokens.getArray();
        Object[] notifierValues = (Object[]) notifiers.getArray();
        Object[] environmentValues = (Object[]) environments.getArray();
        for (int k = 0; k < names.length; k++) {
            String name = (String) names[k];
            OsRoute route = new OsRoute(name, (String) tokenValues[k], (String) notifierValues[k],
                    ((Number) environmentValues[k]).intValue());
            Channel.fromWireName(name).ifPresent(channel -> routes.put(channel, route));
        }
        return routes;
    }
}
