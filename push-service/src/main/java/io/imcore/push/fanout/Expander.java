package io.imcore.push.fanout;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.common.store.AdvisoryLocks;
import io.imcore.common.store.Database;
import io.imcore.push.FanoutConfig;
import io.imcore.push.notify.PushRequest;
import io.imcore.push.task.ExpansionCheckpoint;
import io.imcore.push.task.PushTask;
import io.imcore.push.task.TaskDue;
import io.imcore.push.task.TaskState;
import io.imcore.push.task.TaskStore;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * Expands due push tasks onto the channel topics (docs/push-fanout.md). Each step reads one page of the audience
 * after the checkpoint, routes it, and commits the channel records and the next checkpoint in one Kafka transaction;
 * the checkpoint is then mirrored into push_tasks. A task is expanded by one replica at a time (a session advisory
 * lock, released by PostgreSQL when the holder dies), and a replica that takes over reads the last committed
 * checkpoint back from Kafka, so a crash neither loses nor repeats a step.
 */
@ApplicationScoped
public class Expander {

    private static final Logger LOG = Logger.getLogger(Expander.class);
    /** Keeps the task locks apart from other advisory locks of the database. */
    private static final long LOCK_SPACE = 0x5055_5348_0000_0000L;

    private final AgroalDataSource dataSource;
    private final Database database;
    private final TaskStore tasks;
    private final FanoutConfig config;
    private final ObjectMapper mapper;
    private final ChannelRecords channelRecords;
    private final ChannelRecordWriter writer;
    private final Map<Channel, Integer> batchSizes;
    private final Map<Channel, Counter> routedTargets = new EnumMap<>(Channel.class);
    private final Timer stepTimer;
    private final Object signal = new Object();
    private volatile boolean running;
    private boolean woken;
    private final List<Thread> threads = new ArrayList<>();
    private final ExecutorService prefetch = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "push-expander-prefetch");
        thread.setDaemon(true);
        return thread;
    });

    public Expander(AgroalDataSource dataSource, Database database, TaskStore tasks, FanoutConfig config,
            ObjectMapper mapper, ChannelRecords channelRecords, ChannelRecordWriter writer, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.database = database;
        this.tasks = tasks;
        this.config = config;
        this.mapper = mapper;
        this.channelRecords = channelRecords;
        this.writer = writer;
        this.batchSizes = batchSizes(config);
        for (Channel channel : Channel.values()) {
            routedTargets.put(channel, Counter.builder("imcore.push.targets.routed").tag("channel", channel.wireName())
                    .description("devices the expansion routed to the channel").register(registry));
        }
        this.stepTimer = Timer.builder("imcore.push.expansion.step")
                .description("one expansion step: route a page, commit its records and checkpoint, mirror it")
                .register(registry);
    }

    void start(@Observes StartupEvent event) {
        if (!config.enabled()) {
            return;
        }
        running = true;
        String replica = config.replicaId().filter(id -> !id.isBlank())
                .orElse("push-service-" + UUID.randomUUID().toString().substring(0, 8));
        for (int i = 0; i < config.threads(); i++) {
            String transactionalId = "push-expander-" + replica + "-" + i;
            Thread thread = new Thread(() -> loop(transactionalId), "push-expander-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        synchronized (signal) {
            signal.notifyAll();
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        prefetch.shutdownNow();
    }

    /** Tells an idle expander thread a task is due, so it starts without waiting for the next poll. */
    public void wake() {
        synchronized (signal) {
            woken = true;
            signal.notify();
        }
    }

    /** A task was accepted due now (TaskService). */
    void taskDue(@Observes TaskDue due) {
        wake();
    }

    private void loop(String transactionalId) {
        try (ChannelTopics topics = new ChannelTopics(writer, transactionalId, config.transactionTimeout(), mapper)) {
            while (running) {
                boolean worked = false;
                try {
                    worked = expandOneDueTask(topics);
                } catch (RuntimeException e) {
                    LOG.warnf("push expansion interrupted, the task resumes from its checkpoint: %s", e.toString());
                }
                if (!worked) {
                    awaitSignal();
                }
            }
        }
    }

    private void awaitSignal() {
        synchronized (signal) {
            try {
                if (!woken) {
                    signal.wait(config.pollInterval().toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            }
            woken = false;
        }
    }

    /** Expands the oldest due task no other replica holds; false when there was none. */
    private boolean expandOneDueTask(ChannelTopics topics) {
        for (long taskId : database.read(c -> tasks.due(c, 20))) {
            try (Connection lock = dataSource.getConnection()) {
                if (!AdvisoryLocks.trySessionLock(lock, LOCK_SPACE | taskId)) {
                    continue;
                }
                try {
                    expand(topics, taskId);
                } catch (RuntimeException e) {
                    countFailure(taskId, e);
                    throw e;
                } finally {
                    AdvisoryLocks.sessionUnlock(lock, LOCK_SPACE | taskId);
                }
                return true;
            } catch (SQLException e) {
                throw new IllegalStateException("task lock failed: " + e.getMessage(), e);
            }
        }
        return false;
    }

    /** The task waits before it is tried again (others go first), or ends failed after max-failures in a row. */
    private void countFailure(long taskId, RuntimeException failure) {
        String reason = String.valueOf(failure.getMessage());
        try {
            database.inTransaction(c -> {
                int before = tasks.expansionFailures(c, taskId);
                long backoff = config.failureBackoff().toMillis() << Math.min(before, 20);
                Duration wait = Duration.ofMillis(Math.min(backoff, config.maxFailureBackoff().toMillis()));
                tasks.expansionFailed(c, taskId, reason.length() > 500 ? reason.substring(0, 500) : reason,
                        config.maxFailures(), wait).ifPresent(state -> {
                            if (state == TaskState.FAILED) {
                                LOG.errorf("task %d: expansion failed %d times, the task ends failed: %s", taskId,
                                        config.maxFailures(), reason);
                            } else {
                                LOG.warnf("task %d: expansion failed (%d in a row), tried again in %s: %s", taskId,
                                        before + 1, wait, reason);
                            }
                        });
                return null;
            });
        } catch (RuntimeException e) { // the database is away too: the task is simply tried again
            LOG.debugf("task %d: expansion failure not counted: %s", taskId, e.getMessage());
        }
    }

    private void expand(ChannelTopics topics, long taskId) {
        PushTask task = database.read(c -> tasks.load(c, taskId)).orElse(null);
        TaskState state = task == null ? null : TaskState.fromWireName(task.state);
        if (state == null || !isPending(state)) {
            return; // finished by another replica between the due query and the lock
        }
        PushRequest request = tasks.request(task);
        ExpansionCheckpoint checkpoint = database.read(c -> tasks.checkpoint(c, task));
        if (state == TaskState.EXPANDING) {
            // an earlier expansion stopped: steps it committed to Kafka may be newer than the mirror
            long mirrored = task.checkpointOffset == null ? -1 : task.checkpointOffset;
            Optional<ChannelTopics.Committed> committed = topics.lastCheckpoint(taskId, mirrored);
            if (committed.isPresent() && committed.get().checkpoint().pages() > checkpoint.pages()) {
                LOG.infof("task %d: resuming after step %d committed to Kafka (PostgreSQL had step %d)", taskId,
                        committed.get().checkpoint().pages(), checkpoint.pages());
                checkpoint = committed.get().checkpoint();
                ExpansionCheckpoint newer = checkpoint;
                database.inTransaction(c -> {
                    tasks.saveCheckpoint(c, newer, committed.get().offset());
                    return null;
                });
            }
            LOG.infof("task %d: resuming after step %d", taskId, checkpoint.pages());
        } else {
            long floor = topics.checkpointFloor(taskId);
            if (!database.inTransaction(c -> tasks.startExpanding(c, taskId, floor))) {
                return; // cancelled since it was loaded
            }
        }
        int pageSize = config.pageSize();
        List<DeviceRow> page = readPage(task, request, checkpoint.cursorDeviceId());
        while (running) {
            if (task.showEndAt != null && Instant.now().isAfter(task.showEndAt)) {
                finish(taskId, TaskState.EXPIRED);
                return;
            }
            if (page.isEmpty()) {
                finish(taskId, finalState(checkpoint));
                return;
            }
            boolean last = page.size() < pageSize;
            // the next page follows from this one's last device: read it while this step commits
            long nextCursor = page.get(page.size() - 1).deviceId();
            CompletableFuture<List<DeviceRow>> following = last ? null
                    : CompletableFuture.supplyAsync(() -> readPage(task, request, nextCursor), prefetch);
            ExpansionCheckpoint current = checkpoint;
            List<DeviceRow> routedPage = page;
            checkpoint = stepTimer.record(() -> step(topics, task, request, current, routedPage));
            if (last) {
                finish(taskId, finalState(checkpoint));
                return;
            }
            page = following.join();
        }
    }

    private List<DeviceRow> readPage(PushTask task, PushRequest request, long cursor) {
        return database.read(c ->
                AudiencePages.next(c, task.appId, request.audience(), cursor, config.pageSize()));
    }

    /** Dispatching until push-worker has processed every batch; done at once when nothing was reachable. */
    private static TaskState finalState(ExpansionCheckpoint checkpoint) {
        return checkpoint.batchesTotal() == 0 ? TaskState.DONE : TaskState.DISPATCHING;
    }

    /**
     * Routes one page, commits its records with the next checkpoint, and mirrors that checkpoint. A channel's
     * targets are cut by the channel's batch size, and a batch by bytes (ChannelRecords).
     */
    private ExpansionCheckpoint step(ChannelTopics topics, PushTask task, PushRequest request,
            ExpansionCheckpoint checkpoint, List<DeviceRow> page) {
        Map<Channel, List<Target>> open = new EnumMap<>(Channel.class);
        Map<String, Integer> routed = new TreeMap<>();
        List<ChannelRecords.Encoded> records = new ArrayList<>();
        for (DeviceRow device : page) {
            DeviceRouting.Routed route = DeviceRouting.route(device, request.strategy(), request.osSequence());
            if (route == null) {
                continue;
            }
            routed.merge(route.channel().wireName(), 1, Integer::sum);
            List<Target> targets = open.computeIfAbsent(route.channel(), c -> new ArrayList<>());
            targets.add(route.target());
            if (targets.size() == batchSizes.get(route.channel())) {
                records.addAll(channelRecords.encode(batch(task, request, checkpoint.batchesTotal() + records.size(),
                        route.channel(), targets)));
                open.remove(route.channel());
            }
        }
        for (Map.Entry<Channel, List<Target>> rest : open.entrySet()) {
            records.addAll(channelRecords.encode(batch(task, request, checkpoint.batchesTotal() + records.size(),
                    rest.getKey(), rest.getValue())));
        }
        ExpansionCheckpoint next = checkpoint.next(page.get(page.size() - 1).deviceId(), page.size(),
                records.size(), routed);
        long offset = topics.commitStep(records, next);
        database.inTransaction(c -> {
            tasks.saveCheckpoint(c, next, offset);
            return null;
        });
        routed.forEach((channel, count) ->
                routedTargets.get(Channel.fromWireName(channel).orElseThrow()).increment(count));
        return next;
    }

    private static PushBatch batch(PushTask task, PushRequest request, int batchNo, Channel channel,
            List<Target> targets) {
        return new PushBatch(PushBatch.VERSION, task.taskId, task.appId, batchNo, channel.wireName(),
                request.message(), request.showEndTime(), List.copyOf(targets), null);
    }

    private void finish(long taskId, TaskState state) {
        database.inTransaction(c -> {
            tasks.finish(c, taskId, state);
            return null;
        });
    }

    private static boolean isPending(TaskState state) {
        return state == TaskState.ACCEPTED || state == TaskState.SCHEDULED || state == TaskState.EXPANDING;
    }

    /** Parses {@code channel=size,...}; every channel gets a size. */
    static Map<Channel, Integer> batchSizes(FanoutConfig config) {
        Map<Channel, Integer> sizes = new EnumMap<>(Channel.class);
        for (Channel channel : Channel.values()) {
            sizes.put(channel, config.defaultBatchSize());
        }
        for (String pair : config.batchSizes().split(",")) {
            String[] parts = pair.trim().split("=");
            Channel channel = parts.length == 2 ? Channel.fromWireName(parts[0].trim()).orElse(null) : null;
            if (channel == null) {
                throw new IllegalArgumentException("im.push.fanout.batch-sizes: not channel=size: " + pair);
            }
            sizes.put(channel, Integer.parseInt(parts[1].trim()));
        }
        return sizes;
    }
}
