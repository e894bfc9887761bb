package io.imcore.push.fanout;

import io.imcore.common.store.Database;
import io.imcore.push.notify.Audience;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Which devices an audience holds, as a condition over {@code push_devices d}: the app's devices selected by the
 * audience's form, without users who opted out and users auth-service disabled. The expansion's pages
 * ({@link AudiencePages}) and the audience count ({@link AudienceCounts}) both read an audience through it, so a
 * count is the set the expansion walks.
 */
final class AudienceDevices {

    private static final String CONDITION = "d.app_id = ?%s"
            + " and not exists (select 1 from push_users u"
            + "   where u.app_id = d.app_id and u.user_id = d.user_id and u.push_disabled)"
            + " and not exists (select 1 from auth_view_users v"
            + "   where v.app_id = d.app_id and v.user_id = d.user_id and v.disabled)";

    private AudienceDevices() {}

    /** The condition for the audience's form; bind it with {@link #bind}. */
    static String condition(Audience.Form form) {
        return CONDITION.formatted(switch (form) {
            case ALL -> "";
            case USER_ID -> " and d.user_id = any(?)";
            case PUSH_TOKEN -> " and d.push_token = any(?)";
            case ALIAS -> " and d.alias = any(?)";
            case TAG -> " and d.user_id in (select t.user_id from push_user_tags t"
                    + " where t.app_id = d.app_id and t.tag = any(?))";
        });
    }

    /** Binds the condition's parameters from {@code first} on; returns the next parameter's index. */
    static int bind(Connection c, PreparedStatement ps, int first, String appId, Audience audience)
            throws SQLException {
        int i = first;
        ps.setString(i++, appId);
        switch (audience.form()) {
            case ALL -> { }
            case USER_ID -> ps.setArray(i++, Database.bigints(c,
                    audience.userIds().stream().mapToLong(Long::longValue).toArray()));
            default -> ps.setArray(i++, c.createArrayOf("text", audience.values().toArray()));
        }
        return i;
    }
}
