package io.imcore.push.task;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.push.Channel;
import io.imcore.common.store.Database;
import io.imcore.push.app.PushAppStore;
import io.imcore.push.fanout.Expander;
import io.imcore.push.fanout.FanoutConfig;
import io.imcore.push.notify.AttachmentCheck;
import io.imcore.push.notify.NotifyParser;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.store.PushTask;
import io.imcore.push.store.PushTaskCount;
import io.imcore.push.store.PushTaskFailure;
import io.imcore.push.store.PushTaskRepository;
import io.imcore.push.task.TaskCreation.Stored;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** POST /push/notify and POST /push/task/detail (api.md 4.5.2, 4.5.3; decisions.md section 5). */
@ApplicationScoped
public class TaskService {

    static final int MAX_DETAIL_IDS = 100;
    /** The per-channel counters of task/detail, in the order of TaskStats.counters. */
    private static final List<String> COUNTERS = List.of("target", "sent", "received", "failed", "rejected");

    private final Database database;
    private final TaskStore tasks;
    private final TaskCreation creation;
    private final PushTaskRepository taskRepository;
    private final NotifyParser parser;
    private final AttachmentCheck attachments;
    private final PushAppStore apps;
    private final Expander expander;
    private final FanoutConfig config;
    private final Counter accepted;

    public TaskService(Database database, TaskStore tasks, TaskCreation creation, PushTaskRepository taskRepository,
            NotifyParser parser, AttachmentCheck attachments, PushAppStore apps, Expander expander, FanoutConfig config,
            MeterRegistry registry) {
        this.database = database;
        this.tasks = tasks;
        this.creation = creation;
        this.taskRepository = taskRepository;
        this.parser = parser;
        this.attachments = attachments;
        this.apps = apps;
        this.expander = expander;
        this.config = config;
        this.accepted = Counter.builder("imcore.push.tasks.accepted").description("push tasks stored").register(registry);
    }

    /**
     * Stores the task and returns its id as soon as it is committed; the expansion runs asynchronously. A
     * request_id seen within the window returns the first task's id and stores nothing.
     */
    public long accept(String appId, JsonNode body) {
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
        Stored stored = creation.store(appId, request, state);
        if (stored.isNew()) {
            accepted.increment();
            if (state == TaskState.ACCEPTED) {
                expander.wake();
            }
        }
        return stored.taskId();
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void expireRequestIds() {
        database.autoCommit(c -> tasks.expireRequestIds(c, config.requestIdWindow()));
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
        for (PushTask task : taskRepository.ofApp(appId, ids)) {
            TaskState state = TaskState.fromWireName(task.state);
            byId.put(task.taskId, new TaskStats(task.taskId, state, task.devicesExpanded, task.batchesTotal,
                    task.batchesDone, new HashMap<>(), state == TaskState.FAILED ? task.failureReason : null,
                    task.createdAt, task.finishedAt, new ArrayList<>()));
        }
        if (byId.isEmpty()) {
            return List.of();
        }
        for (PushTaskCount count : taskRepository.counts(byId.keySet())) {
            byId.get(count.taskId).counters().put(count.channel, new int[] {count.effectiveTarget(), count.sent,
                count.received, count.failed, count.rejected});
        }
        for (PushTaskFailure failure : taskRepository.failures(byId.keySet())) {
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
