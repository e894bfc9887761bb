package io.imcore.push.stats;

import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Reads an app's tasks for GET /push/task/list (index push_tasks_app_created). */
@ApplicationScoped
public class TaskListStore {

    /** A listed body is cut to this many characters. */
    public static final int BODY_CHARACTERS = 120;
    /** The channels whose received counts deliveries, as a SQL list of names: ('vendor_a', ...). */
    private static final String MEASURED = Arrays.stream(Channel.values()).filter(Channel::reportsDeliveries)
            .map(channel -> "'" + channel.wireName() + "'").collect(Collectors.joining(", ", "(", ")"));

    public TaskPage page(Connection c, String appId, TaskListQuery query) throws SQLException {
        Filter filter = filter(appId, query);
        long total;
        try (PreparedStatement ps = c.prepareStatement("select count(*) from push_tasks t where " + filter.sql)) {
            filter.bind(ps, 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
        }
        String order = " order by t.created_at desc, t.task_id desc";
        // the page first, then the counters of its tasks only; target as task/detail reports it (fallbacks moved)
        String sql = "select t.task_id, t.created_at, t.state, t.request->'message'->>'title',"
                + " left(t.request->'message'->>'body', " + BODY_CHARACTERS + "), t.request->>'request_id',"
                + " coalesce(n.target, 0), coalesce(n.sent, 0), coalesce(n.received, 0), coalesce(n.failed, 0),"
                + " coalesce(n.rejected, 0), coalesce(n.measured_target, 0)"
                + " from (select task_id, created_at, state, request from push_tasks t where " + filter.sql + order
                + " offset ? limit ?) t"
                + " left join lateral (select sum(target - fallback_out + fallback_in) as target, sum(sent) as sent,"
                + " sum(received) as received, sum(failed) as failed, sum(rejected) as rejected,"
                + " sum(target - fallback_out + fallback_in) filter (where channel in " + MEASURED + ")"
                + " as measured_target"
                + " from push_task_counts where task_id = t.task_id) n on true" + order;
        List<TaskSummary> list = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int next = filter.bind(ps, 1);
            ps.setInt(next, query.offset());
            ps.setInt(next + 1, query.limit());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    list.add(new TaskSummary(rs.getLong(1), rs.getTimestamp(2).getTime(), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getLong(7), rs.getLong(8),
                            rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12)));
                }
            }
        }
        return new TaskPage(total, list);
    }

    /** The where clause of the query (over push_tasks as {@code t}) and its parameters, in order. */
    private record Filter(String sql, List<Object> parameters) {
        int bind(PreparedStatement ps, int first) throws SQLException {
            int index = first;
            for (Object parameter : parameters) {
                ps.setObject(index++, parameter);
            }
            return index;
        }
    }

    private static Filter filter(String appId, TaskListQuery query) {
        StringBuilder sql = new StringBuilder("t.app_id = ?");
        List<Object> parameters = new ArrayList<>(List.of(appId));
        if (query.from() != null) {
            sql.append(" and t.created_at >= ?");
            parameters.add(OffsetDateTime.ofInstant(query.from(), ZoneOffset.UTC));
        }
        if (query.to() != null) {
            sql.append(" and t.created_at < ?");
            parameters.add(OffsetDateTime.ofInstant(query.to(), ZoneOffset.UTC));
        }
        if (query.state() != null) {
            sql.append(" and t.state = ?");
            parameters.add(query.state().wireName());
        }
        if (query.text() != null) {
            sql.append(" and (t.request->'message'->>'title' ilike ? escape '\\'"
                    + " or t.request->'message'->>'body' ilike ? escape '\\'"
                    + " or t.request->>'request_id' ilike ? escape '\\')");
            String pattern = "%" + likeLiteral(query.text()) + "%";
            parameters.add(pattern);
            parameters.add(pattern);
            parameters.add(pattern);
        }
        return new Filter(sql.toString(), parameters);
    }

    /** The text as a LIKE pattern that matches only itself: its wildcards and the escape character escaped. */
    static String likeLiteral(String text) {
        return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }
}
