package io.imcore.push.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.push.notify.Audience;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.task.TaskStore;
import io.imcore.pushcontract.Channel;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads a task for GET /push/task/history: its row (push_tasks) and its deliveries over time, from the batches'
 * counts as push-worker recorded them when it counted each batch (push_worker_batches.finished_at, counts) and the
 * receipts' times (push_receipts.received_at).
 */
@ApplicationScoped
public class TaskHistoryStore {

    /**
     * Both sources in one statement, receipts first summed per second (a task may have a receipt per device); the
     * bucket width is chosen from the span of the task's times so that it gives about 120 buckets at most.
     */
    private static final String TIMELINE = """
            with e as materialized (
                select b.finished_at as at, c.key as channel, coalesce((c.value->>'sent')::bigint, 0) as sent,
                       coalesce((c.value->>'failed')::bigint, 0) as failed,
                       coalesce((c.value->>'rejected')::bigint, 0) as rejected, 0::bigint as received
                from push_worker_batches b cross join lateral jsonb_each(b.counts) c
                where b.task_id = ? and b.finished_at is not null
                union all
                select date_trunc('second', received_at), channel, 0, 0, 0, count(*)
                from push_receipts where task_id = ? and received_at is not null
                group by 1, 2),
            w as (
                select case when max(at) - min(at) < interval '2 minutes' then 1
                            when max(at) - min(at) < interval '20 minutes' then 10
                            when max(at) - min(at) < interval '2 hours' then 60
                            when max(at) - min(at) < interval '20 hours' then 600
                            when max(at) - min(at) < interval '5 days' then 3600
                            else 86400 end as width
                from e)
            select (floor(extract(epoch from e.at) / w.width) * w.width)::bigint, w.width, e.channel,
                   sum(e.sent), sum(e.failed), sum(e.rejected), sum(e.received)
            from e cross join w group by 1, 2, 3 order by 1, 3""";

    private final TaskStore tasks;
    private final ObjectMapper mapper;

    public TaskHistoryStore(TaskStore tasks, ObjectMapper mapper) {
        this.tasks = tasks;
        this.mapper = mapper;
    }

    /** The app's task, or empty when the id is unknown or another app's. */
    public Optional<TaskHistory> find(Connection c, String appId, long taskId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select state, created_at, request::text, sent_via,"
                + " admin_token_version from push_tasks where task_id = ? and app_id = ?")) {
            ps.setLong(1, taskId);
            ps.setString(2, appId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                int version = rs.getInt(5);
                Integer adminTokenVersion = rs.wasNull() ? null : version;
                return Optional.of(new TaskHistory(taskId, rs.getString(1), rs.getTimestamp(2).getTime(),
                        rs.getString(4), adminTokenVersion, notifyBody(tasks.request(rs.getString(3))),
                        timeline(c, taskId)));
            }
        }
    }

    private TaskHistory.Timeline timeline(Connection c, long taskId) throws SQLException {
        List<TaskHistory.Point> points = new ArrayList<>();
        Integer width = null;
        try (PreparedStatement ps = c.prepareStatement(TIMELINE)) {
            ps.setLong(1, taskId);
            ps.setLong(2, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    width = rs.getInt(2);
                    points.add(new TaskHistory.Point(rs.getLong(1) * 1000, rs.getString(3), rs.getLong(4),
                            rs.getLong(5), rs.getLong(6), rs.getLong(7)));
                }
            }
        }
        return new TaskHistory.Timeline(width, points);
    }

    /** The stored request as a /push/notify body (api.md 4.5.2) with the defaults it was given. */
    private ObjectNode notifyBody(PushRequest request) {
        ObjectNode body = mapper.createObjectNode();
        Audience audience = request.audience();
        if (audience.form() == Audience.Form.ALL) {
            body.put("audience", "all");
        } else {
            ArrayNode values = body.putObject("audience").putArray(audience.form().name().toLowerCase(Locale.ROOT));
            if (audience.form() == Audience.Form.USER_ID) {
                audience.userIds().forEach(values::add);
            } else {
                audience.values().forEach(values::add);
            }
        }
        ObjectNode setting = body.putObject("setting");
        setting.put("request_id", request.requestId());
        setting.put("distribution_strategy", request.strategy().wireName());
        ArrayNode sequence = setting.putArray("ospush_sequence");
        request.osSequence().stream().map(Channel::wireName).forEach(sequence::add);
        body.set("message", request.message());
        return body;
    }
}
