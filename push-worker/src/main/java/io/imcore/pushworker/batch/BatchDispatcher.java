package io.imcore.pushworker.batch;

import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.batch.ChannelSender.EnvironmentDelivery;
import io.imcore.pushworker.batch.WorkerMetrics.Result;
import io.imcore.pushworker.channel.Delivery;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * Sends one channel record (a batch of a task, or an offline push record) and counts it, in the stages of
 * docs/push-worker.md "One batch", chained in {@link #claimSendAndCount}: claim, deliver, fall back, count. The work
 * runs on the {@link SenderPool} shared by every channel; a stage that waits (another worker's claim, a retry
 * backoff, a rate limit, the group commit of offline push claims and finishes) continues there once the wait is over
 * and holds no thread meanwhile.
 */
@ApplicationScoped
public class BatchDispatcher {

    private static final Logger LOG = Logger.getLogger(BatchDispatcher.class);
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private static final CompletableFuture<Boolean> TO_SEND = CompletableFuture.completedFuture(true);
    private static final CompletableFuture<Boolean> NOTHING_TO_SEND = CompletableFuture.completedFuture(false);

    private final ClaimLeases leases;
    private final TaskBatchClaims taskBatches;
    private final OfflinePushClaims offlinePushes;
    private final ChannelSender sender;
    private final WorkerMetrics metrics;
    private final SenderPool senders;

    public BatchDispatcher(ClaimLeases leases, TaskBatchClaims taskBatches, OfflinePushClaims offlinePushes,
            ChannelSender sender, WorkerMetrics metrics, SenderPool senders) {
        this.leases = leases;
        this.taskBatches = taskBatches;
        this.offlinePushes = offlinePushes;
        this.sender = sender;
        this.metrics = metrics;
        this.senders = senders;
    }

    /**
     * Processes the record unless it was counted before, on the {@link SenderPool}: called on a sender thread, it
     * returns when the batch first waits or is done. The future completes when the batch is done with; exceptionally
     * on a database failure (its claim released, the record read again) and with {@link SenderPool.Abandoned} when
     * the worker stops.
     */
    CompletableFuture<Void> process(PushBatch batch) {
        Optional<Channel> channel = Channel.fromWireName(batch.channel());
        if (channel.isEmpty()) {
            LOG.errorf("task %d batch %d: unknown channel %s, skipped", batch.taskId(), batch.batchNo(),
                    batch.channel());
            return DONE;
        }
        BatchRun run = new BatchRun(batch, channel.get(), batch.offline() == null ? taskBatches : offlinePushes);
        return CompletableFuture.completedFuture(run)
                .thenCompose(this::claimSendAndCount)
                .whenComplete((done, failure) -> {
                    if (failure != null) {
                        release(run);
                    }
                });
    }

    /**
     * The record's stages: claim it (waiting while another live worker holds it), deliver it on its channel, fall
     * back (svcpush devices without a live connection go to their OS channel), count it. A record counted before ends
     * at its claim; an offline push record of which another live worker held some devices goes round again for
     * those once ours are counted.
     */
    private CompletableFuture<Void> claimSendAndCount(BatchRun run) {
        return claim(run).thenCompose(toSend -> !toSend ? DONE
                : deliver(run)
                        .thenCompose(this::fallBack)
                        .thenCompose(this::count)
                        .thenCompose(othersHoldTheRest -> othersHoldTheRest ? claimTheRestLater(run) : DONE));
    }

    /**
     * 1. Claim ({@link RecordClaims}): a task batch's push_worker_batches row with its devices' badges, or an offline
     * push record's devices (their trace rows). While another live worker holds the record, claimed again every
     * tenth of the lease, until that worker finished it or its lease lapsed. False when there is nothing to send.
     */
    private CompletableFuture<Boolean> claim(BatchRun run) {
        return run.claims.claim(run).thenCompose(found -> switch (found) {
            case TO_SEND -> TO_SEND;
            case NOTHING -> NOTHING_TO_SEND;
            case HELD_ELSEWHERE -> senders.after(leases.recheckHeld(), run.channel).thenCompose(none -> claim(run));
        });
    }

    /**
     * 2. Deliver the claimed targets on the record's channel ({@link ChannelSender}), or none after the message's
     * show_end_time (they fail and the batch counts as expired).
     */
    private CompletableFuture<BatchRun> deliver(BatchRun run) {
        List<Target> targets = run.batch.targets();
        if (run.deadline != null && Instant.now().isAfter(run.deadline)) {
            run.tally.failed(run.channel, ChannelSender.SHOW_END_TIME_PASSED, targets.size());
            metrics.targets(run.channel, Result.EXPIRED, targets.size());
            run.expired = true;
            return CompletableFuture.completedFuture(run);
        }
        List<EnvironmentDelivery> deliveries = new ArrayList<>(targets.size());
        for (Target target : targets) {
            if (run.devices != null && !run.devices.contains(target.deviceId())) {
                continue; // an offline push device another worker holds, or already sent or superseded
            }
            Delivery delivery = new Delivery(target, target.token(), run.badges.get(target.deviceId()));
            deliveries.add(new EnvironmentDelivery(delivery, target.environment() == null ? 1 : target.environment()));
        }
        return sender.send(run, run.channel, deliveries).thenApply(notLive -> {
            run.notLive = notLive;
            return run;
        });
    }

    /**
     * 3. Fall back: svcpush targets whose device had no live connection are sent on their OS channel under combined
     * (the record carries their route), one channel after the other, and counted there instead; without a route they
     * failed.
     */
    private CompletableFuture<BatchRun> fallBack(BatchRun run) {
        if (run.notLive.isEmpty()) {
            return CompletableFuture.completedFuture(run);
        }
        Map<Channel, List<EnvironmentDelivery>> byChannel = new LinkedHashMap<>();
        for (EnvironmentDelivery p : run.notLive) {
            PushBatch.OsRoute route = p.delivery().target().fallback();
            Optional<Channel> os = route == null ? Optional.empty() : Channel.fromWireName(route.channel());
            if (os.isEmpty()) {
                run.tally.failed(Channel.SVCPUSH, "offline, no OS channel to fall back to", 1);
                metrics.targets(Channel.SVCPUSH, Result.FAILED, 1);
                continue;
            }
            byChannel.computeIfAbsent(os.get(), c -> new ArrayList<>()).add(new EnvironmentDelivery(
                    new Delivery(p.delivery().target(), route.token(), p.delivery().badge()), route.environment()));
        }
        CompletableFuture<?> sends = DONE;
        for (Map.Entry<Channel, List<EnvironmentDelivery>> entry : byChannel.entrySet()) {
            sends = sends.thenCompose(none -> fallBackOn(run, entry.getKey(), entry.getValue()));
        }
        return sends.thenApply(none -> run);
    }

    /** The fallbacks of one OS channel: moved there from svcpush, and sent. */
    private CompletableFuture<List<EnvironmentDelivery>> fallBackOn(BatchRun run, Channel os,
            List<EnvironmentDelivery> moved) {
        run.tally.of(Channel.SVCPUSH).fallbackOut += moved.size();
        run.tally.of(os).fallbackIn += moved.size();
        metrics.targets(Channel.SVCPUSH, Result.FALLBACK, moved.size());
        return sender.send(run, os, moved);
    }

    /**
     * 4. Count ({@link RecordClaims}): a task batch into its task's counters (unless another worker finished it
     * first), an offline push's devices into their trace rows and offline_push_daily. True when another live worker
     * holds other devices of the offline push record.
     */
    private CompletableFuture<Boolean> count(BatchRun run) {
        return run.claims.count(run);
    }

    /**
     * The devices of an offline push record another worker held: their holder may die before it finishes them, so
     * they are claimed again after a while, until it finished them or its lease lapsed.
     */
    private CompletableFuture<Void> claimTheRestLater(BatchRun run) {
        return senders.after(leases.recheckHeld(), run.channel).thenCompose(none -> claimSendAndCount(run));
    }

    /** Ends the batch unfinished (a failure, or stopping): its claim is released for the record's next reading. */
    private void release(BatchRun run) {
        if (!run.holding) {
            return;
        }
        run.claims.release(run);
    }
}
