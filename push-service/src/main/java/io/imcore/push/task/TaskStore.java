package io.imcore.push.task;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.ChunkedDelete;
import io.imcore.push.notify.PushRequest;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The push task aggregate: push_tasks ({@link PushTask}) with its per-channel counters (push_task_counts,
 * {@link PushTaskCount}), failure reasons (push_task_failures, {@link PushTaskFailure}) and request_id claims
 * (push_request_ids). task/detail reads the entities through this Panache repository; everything else is plain SQL
 * (docs/architecture.md): a new task (one statement, the accept path), the expansion's reads and single-statement
 * state changes (they race with push-worker's counter updates and with other replicas, docs/push-fanout.md) and the
 * request_id claim. The counters and failure reasons are push-worker's to write (and the expansion's targets).
 */
@ApplicationScoped
public class TaskStore implements PanacheRepositoryBase<PushTask, Long> {

    private static final String PENDING = "('accepted', 'scheduled', 'expanding')";

    private final ObjectMapper mapper;

    public TaskStore(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * Inserts a task for an app whose push is switched on, in one statement: an accept waits for a busy PostgreSQL
     * once instead of for a select, an insert and a commit (docs/benchmarks.md "Accept"). Empty when push is off for
     * the app (no push_apps row, or switched off).
     */
    public Optional<Long> insertIfEnabled(Connection c, String appId, TaskState state, PushRequest request,
            TaskOrigin origin) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_tasks (app_id, state, request, show_begin_at,"
                + " show_end_at, sent_via, admin_token_version) select ?, ?, ?::jsonb, ?, ?, ?, ?"
                + " where exists (select 1 from push_apps where app_id = ? and push_enabled) returning task_id")) {
            ps.setString(1, appId);
            ps.setString(2, state.wireName());
            ps.setString(3, json(request));
            ps.setObject(4, utc(request.showBeginTime()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setObject(5, utc(request.showEndTime()), Types.TIMESTAMP_WITH_TIMEZONE);
            ps.setString(6, origin.via());
            ps.setInt(7, origin.adminTokenVersion());
            ps.setString(8, appId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }
    }

    /** The task a request_id named within the window, if any. */
    public Optional<Long> taskForRequestId(Connection c, String appId, String requestId, Duration window)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select task_id from push_request_ids"
                + " where app_id = ? and request_id = ? and created_at > now() - ? * interval '1 millisecond'")) {
            ps.setString(1, appId);
            ps.setString(2, requestId);
            ps.setLong(3, window.toMillis());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        }
    }

    /**
     * Records that the request_id names the task, unless another task holds it within the window: then returns
     * that task (the caller rolls back). A concurrent claim waits on the key and then sees the winner.
     */
    public Optional<Long> claimRequestId(Connection c, String appId, String requestId, long taskId, Duration window)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_request_ids (app_id, request_id, task_id)"
                + " values (?, ?, ?) on conflict (app_id, request_id) do update"
                + " set task_id = excluded.task_id, created_at = now()"
                + " where push_request_ids.created_at <= now() - ? * interval '1 millisecond' returning task_id")) {
            ps.setString(1, appId);
            ps.setString(2, requestId);
            ps.setLong(3, taskId);
            ps.setLong(4, window.toMillis());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return Optional.empty();
                }
            }
        }
        return taskForRequestId(c, appId, requestId, window);
    }

    /**
     * Forgets request_ids older than the window (they de-duplicate nothing any more), in chunks (run with
     * auto-commit); returns how many.
     */
    public long expireRequestIds(Connection c, Duration window) throws SQLException {
        return ChunkedDelete.delete(c, "push_request_ids", "created_at <= now() - ? * interval '1 millisecond'", 1,
                (ps, first) -> ps.setLong(first, window.toMillis()), ChunkedDelete.CHUNK);
    }

    /** Tasks waiting for an expander whose time has come, oldest first. */
    public List<Long> due(Connection c, int limit) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select task_id from push_tasks where state in " + PENDING
                + " and (show_begin_at is null or show_begin_at <= now()) and (retry_at is null or retry_at <= now())"
                + " order by task_id limit ?")) {
            ps.setInt(1, limit);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        }
    }

    /**
     * Counts a failed expansion attempt of a pending task: it is tried again after {@code wait}, or ends
     * {@code failed} with {@code reason} on its {@code maxFailures}-th failure in a row. Returns the task's state.
     */
    public Optional<TaskState> expansionFailed(Connection c, long taskId, String reason, int maxFailures,
            Duration wait) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update push_tasks set expansion_failures ="
                + " expansion_failures + 1, failure_reason = ?, retry_at = now() + ? * interval '1 millisecond',"
                + " state = case when expansion_failures + 1 >= ? then 'failed' else state end,"
                + " finished_at = case when expansion_failures + 1 >= ? then now() end"
                + " where task_id = ? and state in " + PENDING + " returning state")) {
            ps.setString(1, reason);
            ps.setLong(2, wait.toMillis());
            ps.setInt(3, maxFailures);
            ps.setInt(4, maxFailures);
            ps.setLong(5, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(TaskState.fromWireName(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /** Consecutive failed expansion attempts of a task (0 when none or unknown). */
    public int expansionFailures(Connection c, long taskId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select expansion_failures from push_tasks where task_id = ?")) {
            ps.setLong(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    /**
     * The task as its expansion starts or resumes it: the row read with plain SQL into a detached entity (the
     * expansion's threads run outside any session). Its request is read by {@link #request}, its checkpoint by
     * {@link #checkpoint}.
     */
    public Optional<PushTask> load(Connection c, long taskId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select app_id, state, request::text, show_begin_at,"
                + " show_end_at, cursor_device_id, pages, devices_expanded, batches_total, checkpoint_offset"
                + " from push_tasks where task_id = ?")) {
            ps.setLong(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                PushTask task = new PushTask();
                task.taskId = taskId;
                task.appId = rs.getString(1);
                task.state = rs.getString(2);
                task.request = rs.getString(3);
                task.showBeginAt = instant(rs.getTimestamp(4));
                task.showEndAt = instant(rs.getTimestamp(5));
                task.cursorDeviceId = rs.getLong(6);
                task.pages = rs.getInt(7);
                task.devicesExpanded = rs.getLong(8);
                task.batchesTotal = rs.getInt(9);
                long offset = rs.getLong(10);
                task.checkpointOffset = rs.wasNull() ? null : offset;
                return Optional.of(task);
            }
        }
    }

    /** The expansion's checkpoint mirrored in the task's row, with the targets it routed so far per channel. */
    public ExpansionCheckpoint checkpoint(Connection c, PushTask task) throws SQLException {
        Map<String, Integer> targets = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "select channel, target from push_task_counts where task_id = ? and target > 0")) {
            ps.setLong(1, task.taskId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    targets.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return new ExpansionCheckpoint(ExpansionCheckpoint.VERSION, task.taskId, task.cursorDeviceId, task.pages,
                task.devicesExpanded, task.batchesTotal, targets);
    }

    /** The task's stored request. */
    public PushRequest request(PushTask task) {
        return request(task.request);
    }

    /** A stored request (push_tasks.request as text). */
    public PushRequest request(String stored) {
        try {
            return mapper.readValue(stored, PushRequest.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored push request must deserialize", e);
        }
    }

    /**
     * Marks the start of an expansion; every checkpoint of it lies after {@code checkpointOffset} on its partition.
     * False when the task is no longer waiting: {@link #cancelScheduled} came first (the row lock orders the two,
     * and each re-checks the state, so exactly one of them wins).
     */
    public boolean startExpanding(Connection c, long taskId, long checkpointOffset) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update push_tasks set state = 'expanding',"
                + " checkpoint_offset = ? where task_id = ? and state in ('accepted', 'scheduled')")) {
            ps.setLong(1, checkpointOffset);
            ps.setLong(2, taskId);
            return ps.executeUpdate() == 1;
        }
    }

    /** Cancels the app's task if it is still scheduled (see {@link #startExpanding}); false otherwise. */
    public boolean cancelScheduled(Connection c, String appId, long taskId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update push_tasks set state = 'cancelled', finished_at = now()"
                + " where task_id = ? and app_id = ? and state = 'scheduled'")) {
            ps.setLong(1, taskId);
            ps.setString(2, appId);
            return ps.executeUpdate() == 1;
        }
    }

    /** The state of the app's task; empty for an unknown task or another app's. */
    public Optional<TaskState> stateOf(Connection c, String appId, long taskId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select state from push_tasks where task_id = ? and app_id = ?")) {
            ps.setLong(1, taskId);
            ps.setString(2, appId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(TaskState.fromWireName(rs.getString(1))) : Optional.empty();
            }
        }
    }

    /**
     * The app's scheduled tasks, the soonest first, and how many there are (index push_tasks_unfinished: few rows
     * whatever the number of finished tasks).
     */
    public ScheduledPage scheduled(Connection c, String appId, int offset, int limit) throws SQLException {
        long total;
        try (PreparedStatement ps = c.prepareStatement(
                "select count(*) from push_tasks where state = 'scheduled' and app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
        }
        List<ScheduledPage.Task> list = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select task_id, created_at, request::text from push_tasks"
                + " where state = 'scheduled' and app_id = ? order by show_begin_at, task_id offset ? limit ?")) {
            ps.setString(1, appId);
            ps.setInt(2, offset);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    PushRequest request = request(rs.getString(3));
                    list.add(ScheduledPage.Task.of(rs.getLong(1), rs.getTimestamp(2).getTime(), request));
                }
            }
        }
        return new ScheduledPage(total, list);
    }

    /** Mirrors a committed checkpoint (and the target counters it carries); idempotent. */
    public void saveCheckpoint(Connection c, ExpansionCheckpoint checkpoint, long checkpointOffset)
            throws SQLException {
        // The target counters first, in channel-name order, then the task row, as push-worker's BatchLedger.finish
        // takes them: the two never wait on each other in a cycle.
        try (PreparedStatement ps = c.prepareStatement("insert into push_task_counts (task_id, channel, target)"
                + " values (?, ?, ?) on conflict (task_id, channel) do update set target = excluded.target")) {
            for (Map.Entry<String, Integer> entry : new TreeMap<>(checkpoint.targets()).entrySet()) {
                ps.setLong(1, checkpoint.taskId());
                ps.setString(2, entry.getKey());
                ps.setInt(3, entry.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("update push_tasks set cursor_device_id = ?, pages = ?,"
                + " devices_expanded = ?, batches_total = ?, checkpoint_offset = ?, expansion_failures = 0,"
                + " retry_at = null where task_id = ? and pages <= ?")) {
            ps.setLong(1, checkpoint.cursorDeviceId());
            ps.setInt(2, checkpoint.pages());
            ps.setLong(3, checkpoint.devicesExpanded());
            ps.setInt(4, checkpoint.batchesTotal());
            ps.setLong(5, checkpointOffset);
            ps.setLong(6, checkpoint.taskId());
            ps.setInt(7, checkpoint.pages());
            ps.executeUpdate();
        }
    }

    /**
     * Ends the expansion. {@code dispatching} becomes {@code done} (or {@code expired}) at once when push-worker has
     * already processed every batch: the worker only completes tasks it sees dispatching, and the row lock orders
     * the two updates, so whichever comes second completes the task.
     */
    public void finish(Connection c, long taskId, TaskState state) throws SQLException {
        // both expressions read the row as locked by this update (re-read after a concurrent worker's commit)
        String newState = "case when ?::text = 'dispatching' and batches_done >= batches_total"
                + " then case when batches_expired > 0 then 'expired' else 'done' end else ?::text end";
        try (PreparedStatement ps = c.prepareStatement("update push_tasks set state = " + newState
                + ", finished_at = case when (" + newState + ") in ('done', 'expired') then now() end"
                + " where task_id = ?")) {
            for (int i = 1; i <= 4; i++) {
                ps.setString(i, state.wireName());
            }
            ps.setLong(5, taskId);
            ps.executeUpdate();
        }
    }

    /**
     * Per unfinished state, how long its oldest task has been due (since it was stored, or since its
     * show_begin_time): a scheduled task not yet due counts 0. States without a task are absent.
     */
    public Map<TaskState, Double> oldestDueSeconds(Connection c) throws SQLException {
        Map<TaskState, Double> oldest = new EnumMap<>(TaskState.class);
        try (PreparedStatement ps = c.prepareStatement("""
                select state, greatest(0, extract(epoch from now() - min(greatest(created_at,
                       coalesce(show_begin_at, created_at)))))
                from push_tasks where state in ('accepted', 'scheduled', 'expanding', 'dispatching')
                group by state""");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                oldest.put(TaskState.fromWireName(rs.getString(1)), rs.getDouble(2));
            }
        }
        return oldest;
    }

    // task/detail: the entities

    /** The app's tasks among the ids, in id order; unknown and foreign ids are left out. */
    public List<PushTask> ofApp(String appId, Collection<Long> taskIds) {
        return list("appId = ?1 and taskId in ?2 order by taskId", appId, taskIds);
    }

    /** The tasks' counters per channel. */
    public List<PushTaskCount> counts(Collection<Long> taskIds) {
        return getEntityManager().createQuery("from PushTaskCount c where c.taskId in ?1", PushTaskCount.class)
                .setParameter(1, taskIds).getResultList();
    }

    /** The tasks' failure reasons, per task the largest count first. */
    public List<PushTaskFailure> failures(Collection<Long> taskIds) {
        return getEntityManager().createQuery("from PushTaskFailure f where f.taskId in ?1"
                + " order by f.taskId, f.count desc, f.channel, f.outcome, f.reason", PushTaskFailure.class)
                .setParameter(1, taskIds).getResultList();
    }

    private String json(PushRequest request) {
        try {
            return mapper.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a push request must serialize", e);
        }
    }

    private static OffsetDateTime utc(Long epochSeconds) {
        return epochSeconds == null ? null : Instant.ofEpochSecond(epochSeconds).atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
