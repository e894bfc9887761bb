package io.imcore.push.task;

import com.fasterxml.jackson.databind.JsonNode;
import io.imcore.common.error.ApiException;
import io.imcore.common.error.ErrorCode;
import io.imcore.common.push.Channel;
import io.imcore.common.store.Database;
import io.imcore.push.app.PushApps;
import io.imcore.push.fanout.Expander;
import io.imcore.push.fanout.FanoutConfig;
import io.imcore.push.notify.AttachmentCheck;
import io.imcore.push.notify.NotifyParser;
import io.imcore.push.notify.PushRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
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
    private final NotifyParser parser;
    private final AttachmentCheck attachments;
    private final PushApps apps;
    private final Expander expander;
    private final FanoutConfig config;
    private final Counter accepted;

    public TaskService(Database database, TaskStore tasks, NotifyParser parser, AttachmentCheck attachments,
            PushApps apps, Expander expander, FanoutConfig config, MeterRegistry registry) {
        this.database = database;
        this.tasks = tasks;
        this.parser = parser;
        this.attachments = attachments;
        this.apps = apps;
        this.expander = expander;
        this.config = config;
        this.accepted = Counter.builder("im_push_tasks_accepted").description("push tasks stored").register(registry);
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
        if (!apps.isEnabled(appId)) {
            throw new ApiException(ErrorCode.PUSH_NOT_ENABLED);
        }
        if (request.attachmentUrl() != null) {
            attachments.check(request.attachmentUrl());
        }
        TaskState state = request.showBeginTime() != null && request.showBeginTime() > Instant.now().getEpochSecond()
                ? TaskState.SCHEDULED : TaskState.ACCEPTED;
        Stored stored = database.inTransaction(c -> {
            long id = tasks.insert(c, appId, request, state);
            if (request.requestId() != null) {
                Optional<Long> first = tasks.claimRequestId(c, appId, request.requestId(), id, config.requestIdWindow());
                if (first.isPresent()) {
                    c.rollback(); // a concurrent call with the same request_id won: nothing of ours stays
                    return new Stored(first.get(), false);
                }
            }
            return new Stored(id, true);
        });
        if (stored.isNew()) {
            accepted.increment();
            if (state == TaskState.ACCEPTED) {
                expander.wake();
            }
        }
        return stored.taskId();
    }

    /** The task a call answers with, and whether this call stored it. */
    private record Stored(long taskId, boolean isNew) {}

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void expireRequestIds() {
        database.autoCommit(c -> tasks.expireRequestIds(c, config.requestIdWindow()));
    }

    /** The caller's tasks among the ids with their 24 counters, state and progress (docs/push-fanout.md). */
    public List<Map<String, Object>> details(String appId, List<Long> taskIds) {
        if (taskIds == null) {
            throw ApiException.badParameter("list", "required");
        }
        if (taskIds.size() > MAX_DETAIL_IDS) {
            throw ApiException.badParameter("list", "at most " + MAX_DETAIL_IDS + " task ids per call");
        }
        long[] ids = new long[taskIds.size()];
        for (int i = 0; i < ids.length; i++) {
            if (taskIds.get(i) == null) {
                throw ApiException.badParameter("list[" + i + "]", "must be a task id");
            }
            ids[i] = taskIds.get(i);
        }
        return database.read(c -> tasks.stats(c, appId, ids)).stream().map(TaskService::detail).toList();
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
