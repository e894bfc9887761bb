package io.imcore.push.stats;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Daily sums for GET /push/stats/daily, computed from push_tasks and push_task_counts when asked (no rollup
 * table: docs/push-statistics.md gives the measurement that decided it).
 */
@ApplicationScoped
public class DailyStatsStore {

    /** The app's counters per UTC day of acceptance and channel, from {@code firstDay} on. */
    public List<DailyRow> since(Connection c, String appId, LocalDate firstDay) throws SQLException {
        String day = "to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD')";
        try (PreparedStatement ps = c.prepareStatement("select " + day + ", n.channel,"
                + " sum(n.target - n.fallback_out + n.fallback_in), sum(n.sent), sum(n.received), sum(n.failed),"
                + " sum(n.rejected)"
                + " from push_tasks t join push_task_counts n on n.task_id = t.task_id"
                + " where t.app_id = ? and t.created_at >= ?"
                + " group by 1, 2"
                + " having sum(n.target - n.fallback_out + n.fallback_in) + sum(n.sent) + sum(n.received)"
                + " + sum(n.failed) + sum(n.rejected) > 0"
                + " order by 1, 2")) {
            ps.setString(1, appId);
            ps.setObject(2, firstDay.atStartOfDay().atOffset(ZoneOffset.UTC));
            List<DailyRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new DailyRow(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getLong(6), rs.getLong(7)));
                }
            }
            return rows;
        }
    }
}
