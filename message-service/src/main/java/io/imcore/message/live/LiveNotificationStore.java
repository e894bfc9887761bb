package io.imcore.message.live;

import io.imcore.common.store.ChunkedDelete;
import io.imcore.common.store.Database;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * svcpush notifications on their way to another replica: the content is stored here and the NOTIFY payloads
 * name the row, since a payload holds at most 8000 bytes.
 */
@ApplicationScoped
public class LiveNotificationStore {

    public record Stored(long id, String appId, long taskId, String notification) {}

    /**
     * Stores the notification and sends each NOTIFY in one statement (so in one auto-committed transaction: the
     * replicas are told only once the row is readable). {@code payloadTails[i]} goes to {@code channels[i]}
     * after the row id: the payload is {@code {"n":<id>,<tail>}}.
     */
    public void storeAndAnnounce(Connection c, String appId, long taskId, String notification, String[] channels,
            String[] payloadTails) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("with stored as (insert into live_notifications"
                + " (app_id, task_id, notification) values (?, ?, ?) returning id)"
                + " select pg_notify(t.channel, '{\"n\":' || s.id || ',' || t.tail || '}')"
                + " from stored s cross join unnest(?::text[], ?::text[]) as t(channel, tail)")) {
            ps.setString(1, appId);
            ps.setLong(2, taskId);
            ps.setString(3, notification);
            ps.setArray(4, c.createArrayOf("text", channels));
            ps.setArray(5, c.createArrayOf("text", payloadTails));
            ps.executeQuery().close();
        }
    }

    public List<Stored> find(Connection c, long[] ids) throws SQLException {
        List<Stored> found = new ArrayList<>(ids.length);
        try (PreparedStatement ps = c.prepareStatement(
                "select id, app_id, task_id, notification from live_notifications where id = any(?)")) {
            ps.setArray(1, Database.bigints(c, ids));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.add(new Stored(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
                }
            }
        }
        return found;
    }

    /** Deletes notifications older than the retention, in chunks (run with auto-commit); returns how many. */
    public long purge(Connection c, Duration retention) throws SQLException {
        return ChunkedDelete.delete(c, "live_notifications", "created_at < now() - make_interval(secs => ?)", 1,
                (ps, first) -> ps.setDouble(first, retention.toMillis() / 1000.0), ChunkedDelete.CHUNK);
    }
}
