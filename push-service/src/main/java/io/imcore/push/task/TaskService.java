package io.imcore.push.task;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.api.ApiException;
import io.imcore.common.api.ErrorCode;
import io.imcore.common.store.Database;
import io.imcore.push.FanoutConfig;
import io.imcore.push.app.PushAppStore;
import io.imcore.push.notify.AttachmentCheck;
import io.imcore.push.notify.NotifyParser;
import io.imcore.push.notify.PushRequest;
import io.imcore.pushcontract.Channel;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * POST /push/notify and POST /push/task/detail (api.md 4.5.2, 4.5.3; decisions.md section 5). A new task is stored
 * as its push_tasks row, inserted only while the app's push is switched on ({@link TaskStore#insertIfEnabled}), and,
 * when the request has a request_id, its claim in push_request_ids (one {@code insert ... on conflict} decides it
 * across replicas). Without a request_id the insert runs alone with auto-commit: one round trip. With one, the insert
 * and the claim are one transaction (TaskCreationTransactionTest).
 */
@ApplicationScoped
public class TaskService {

    static final int MAX_DETAIL_IDS = 100;
    /** The per-channel counters of task/detail, in the order of TaskStats.counters. */
    private static final List<String> COUNTERS = List.of("target", "sent", "received", "failed", "rejected");

    private final Database database;
    private final TaskStore tasks;
    private final NotifyParser parser;
    private final AttachmentCheck attachments;
    private final PushAppStore apps;
    private final Event<TaskDue> due;
    private final FanoutConfig config;
    private final Counter accepted;

    public TaskService(Database database, TaskStore tasks, NotifyParser parser, AttachmentCheck attachments,
            PushAppStore apps, Event<TaskDue> due, FanoutConfig config, MeterRegistry registry) {
        this.database = database;
        this.tasks = tasks;
        this.parser = parser;
        this.attachments = attachments;
        this.apps = apps;
        this.due = due;
        this.config = config;
        this.accepted = Counter.builder("imcore.push.tasks.accepted").description("push tasks stored").register(registry);
    }

    /**
     * Stores the task and returns its id as soon as it is committed; the expansion runs asynchronously. A
     * request_id seen within the window returns the first task's id and stores nothing.
     */
    public long accept(String appId, JsonNode body, TaskOrigin origin) {
        PushRequest request = parser.parse(body);
        if (request.requestId() != null) {
            Optional<Long> earlier = database.read(c ->
                    tasks.taskForRequestId(c, appId, request.requestId(), config.requestIdWindow()));
            if (earlier.isPresent()) {
                return earlier.get();
            }
        }
        if (request.attachmentUrl() != null) {
            // push switched off answers 12006 before anything is downloaded; the insert checks it again
            if (!apps.isEnabled(appId)) {
                throw new ApiException(ErrorCode.PUSH_NOT_ENABLED);
            }
            attachments.check(request.attachmentUrl());
        }
        TaskState state = request.showBeginTime() != null && request.showBeginTime() > Instant.now().getEpochSecond()
                ? TaskState.SCHEDULED : TaskState.ACCEPTED;
        Stored stored = store(appId, request, state, origin);
        if (stored.isNew()) {
            accepted.increment();
            if (state == TaskState.ACCEPTED) {
                due.fire(new TaskDue(stored.taskId()));
            }
        }
        return stored.taskId();
    }

    /** The task a call answers with, and whether this call stored it. */
    public record Stored(long taskId, boolean isNew) {}

    /** Stores the task; 12006 when push is switched off for the app. */
    public Stored store(String appId, PushRequest request, TaskState state, TaskOrigin origin) {
        if (request.requestId() == null) {
            return new Stored(database.autoCommit(c -> insert(c, appId, request, state, origin)), true);
        }
        try {
            // the caller's transaction if there is one (tests), else a new one
            return database.inTransaction(c -> {
                long taskId = insert(c, appId, request, state, origin);
                Optional<Long> first = tasks.claimRequestId(c, appId, request.requestId(), taskId,
                        config.requestIdWindow());
                if (first.isPresent()) {
                    throw new ClaimedBefore(first.get()); // rolls back our insert
                }
                return new Stored(taskId, true);
            });
        } catch (ClaimedBefore e) {
            // a concurrent call with the same request_id won: nothing of ours stays
            return new Stored(e.taskId, false);
        }
    }

    /** The request_id names another task: thrown out of the transaction so that it rolls back. */
    private static final class ClaimedBefore extends RuntimeException {
        private final long taskId;

        ClaimedBefore(long taskId) {
            super(null, null, false, false);
            this.taskId = taskId;
        }
    }

    private long insert(Connection c, String appId, PushRequest request, TaskState state,
            TaskOrigin origin) throws SQLException {
        return tasks.insertIfEnabled(c, appId, state, request, origin)
                .orElseThrow(() -> new ApiException(ErrorCode.PUSH_NOT_ENABLED));
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void expireRequestIds() {
        database.autoCommit(c -> tasks.expireRequestIds(c, config.requestIdWindow()));
    }

    /**
     * Cancels the app's scheduled task before it is expanded: a single conditional update races the expander's
     * {@link TaskStore#startExpanding}, and exactly one of them wins (docs/api-decisions.md). Cancelling a cancelled
     * task answers the same again; any other state is 12007, an unknown or another app's task 10002.
     */
    public TaskState cancel(String appId, Long taskId) {
        if (taskId == null) {
            throw ApiException.badParameter("task_id", "required");
        }
        return database.autoCommit(c -> {
            if (tasks.cancelScheduled(c, appId, taskId)) {
                return TaskState.CANCELLED;
            }
            TaskState state = tasks.stateOf(c, appId, taskId)
                    .orElseThrow(() -> ApiException.badParameter("task_id", "no task of this app has this id"));
            if (state != TaskState.CANCELLED) {
                throw new ApiException(ErrorCode.PUSH_TASK_NOT_SCHEDULED, "task_id: task " + taskId + " is "
                        + state.wireName() + "; only a scheduled task can be cancelled");
            }
            return state;
        });
    }

    /** The app's scheduled tasks, the soonest first. */
    public ScheduledPage scheduled(String appId, int offset, int limit) {
        return database.read(c -> tasks.scheduled(c, appId, offset, limit));
    }

    /** The caller's tasks among the ids with their 24 counters, state and progress (docs/push-fanout.md). */
    @Transactional
    public List<Map<String, Object>> details(String appId, List<Long> taskIds) {
        if (taskIds == null) {
            throw ApiException.badParameter("list", "required");
        }
        if (taskIds.size() > MAX_DETAIL_IDS) {
            throw ApiException.badParameter("list", "at most " + MAX_DETAIL_IDS + " task ids per call");
        }
        for (int i = 0; i < taskIds.size(); i++) {
            if (taskIds.get(i) == null) {
                throw ApiException.badParameter("list[" + i + "]", "must be a task id");
            }
        }
        return stats(appId, taskIds).stream().map(TaskService::detail).toList();
    }

    /** The app's tasks among the ids with their counters and failure reasons, in id order. */
    @Transactional
    public List<TaskStats> stats(String appId, List<Long> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<Long, TaskStats> byId = new LinkedHashMap<>();
        for (PushTask task : tasks.ofApp(appId, ids)) {
            TaskState state = TaskState.fromWireName(task.state);
            byId.put(task.taskId, new TaskStats(task.taskId, state, task.devicesExpanded, task.batchesTotal,
                    task.batchesDone, new HashMap<>(), state == TaskState.FAILED ? task.failureReason : null,
                    task.createdAt, task.finishedAt, new ArrayList<>()));
        }
        if (byId.isEmpty()) {
            return List.of();
        }
        for (PushTaskCount count : tasks.counts(byId.keySet())) {
            byId.get(count.taskId).counters().put(count.channel, new int[] {count.effectiveTarget(), count.sent,
                count.received, count.failed, count.rejected});
        }
        for (PushTaskFailure failure : tasks.failures(byId.keySet())) {
            byId.get(failure.taskId).failures().add(new TaskStats.Failure(failure.channel, failure.outcome,
                    failure.reason, failure.count));
        }
        return new ArrayList<>(byId.values());
    }

    private static Map<String, Object> detail(TaskStats stats) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("task_id", stats.taskId());
        for (Channel channel : Channel.values()) {
            int[] counts = stats.counters().getOrDefault(channel.wireName(), new int[COUNTERS.size()]);
            for (int i = 0; i < COUNTERS.size(); i++) {
                detail.put(channel.wireName() + "_" + COUNTERS.get(i), counts[i]);
            }
        }
        detail.put("state", stats.state().wireName());
        if (stats.failureReason() != null) {
            detail.put("reason", stats.failureReason());
        }
        Map<String, Object> progress = new LinkedHashMap<>();
        progress.put("devices_expanded", stats.devicesExpanded());
        progress.put("batches_total", stats.batchesTotal());
        progress.put("batches_done", stats.batchesDone());
        detail.put("progress", progress);
        detail.put("created_at", stats.createdAt().toEpochMilli());
        detail.put("finished_at", stats.finishedAt() == null ? null : stats.finishedAt().toEpochMilli());
        detail.put("failures", stats.failures());
        return detail;
    }
}
