package io.imcore.pushworker.batch;

import io.imcore.common.push.Channel;
import io.imcore.common.push.Receipts;
import io.imcore.common.push.PushBatch;
import io.imcore.common.push.PushBatch.Target;
import io.imcore.common.store.Database;
import io.imcore.pushworker.batch.ChannelSender.Pending;
import io.imcore.pushworker.batch.WorkerMetrics.Result;
import io.imcore.pushworker.channel.Delivery;
import io.imcore.pushworker.channel.Notification;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /**
     * Channels whose payload carries the app-icon badge, so the server keeps the device's counter for them (vendor_a
     * only with a badge_class: its badge needs the launcher class).
     */
    private static final Set<Channel> BADGE_CHANNELS =
            EnumSet.of(Channel.APNS, Channel.FCM, Channel.HUAWEI, Channel.SVCPUSH);

    private static final Logger LOG = Logger.getLogger(BatchDispatcher.class);
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    private static final CompletableFuture<Boolean> TO_SEND = CompletableFuture.completedFuture(true);
    private static final CompletableFuture<Boolean> NOTHING_TO_SEND = CompletableFuture.completedFuture(false);

    /** What a claim left this worker with. */
    private enum Claimed {
        /** A part of the record (all of a task batch) to send now. */
        TO_SEND,
        /** Nothing: counted before, its task gone, or every device of the offline push sent or superseded. */
        NOTHING,
        /** Nothing yet: another live worker holds it under a standing lease. */
        HELD_ELSEWHERE
    }

    /** Where a task batch stands, and its devices' badge numbers (empty for channels without a badge). */
    private record BatchClaim(BatchLedger.Claim claim, Map<Long, Integer> badges) {}

    private final Database database;
    private final ClaimLeases leases;
    private final BatchLedger ledger;
    private final OfflineLedger offlineLedger;
    private final ChannelSender sender;
    private final WorkerMetrics metrics;
    private final SenderPool senders;

    public BatchDispatcher(Database database, ClaimLeases leases, BatchLedger ledger, OfflineLedger offlineLedger,
            ChannelSender sender, WorkerMetrics metrics, SenderPool senders) {
        this.database = database;
        this.leases = leases;
        this.ledger = ledger;
        this.offlineLedger = offlineLedger;
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
        BatchRun run = new BatchRun(batch, channel.get());
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
     * 1. Claim, in one transaction: a task batch's push_worker_batches row with its devices' badges, or an offline
     * push record's devices (their trace rows). While another live worker holds the record, claimed again every
     * tenth of the lease, until that worker finished it or its lease lapsed. False when there is nothing to send.
     */
    private CompletableFuture<Boolean> claim(BatchRun run) {
        CompletableFuture<Claimed> claimed = run.isOfflinePush() ? claimOfflineDevices(run)
                : CompletableFuture.completedFuture(claimTaskBatch(run));
        return claimed.thenCompose(found -> switch (found) {
            case TO_SEND -> TO_SEND;
            case NOTHING -> NOTHING_TO_SEND;
            case HELD_ELSEWHERE -> senders.after(leases.recheckHeld(), run.channel).thenCompose(none -> claim(run));
        });
    }

    /** A task batch: its claim row, and its devices' badges raised or set on the first claim (read back after). */
    private Claimed claimTaskBatch(BatchRun run) {
        PushBatch batch = run.batch;
        Notification notification = run.notification;
        boolean withBadge = BADGE_CHANNELS.contains(run.channel) && !notification.isPassThrough()
                && (run.channel != Channel.HUAWEI
                        || notification.channelSettings(run.channel).hasNonNull("badge_class"));
        long[] deviceIds = batch.targets().stream().mapToLong(Target::deviceId).toArray();
        BatchClaim found = database.inTransaction(c -> {
            BatchLedger.Claim claim = ledger.claim(c, batch.taskId(), batch.batchNo());
            boolean sending = claim == BatchLedger.Claim.FRESH || claim == BatchLedger.Claim.RESUMED;
            if (sending) { // before anything is sent: a receipt cannot come before its ledger row
                Receipts.expect(c, batch.taskId(), run.channel, deviceIds);
            }
            return new BatchClaim(claim, withBadge && sending
                    ? ledger.badges(c, claim, batch.message().path("badge").asText("+1"), deviceIds) : Map.of());
        });
        return switch (found.claim) {
            case HELD -> {
                // another live worker sends it (a rebalance gave both the record): its outcome, or its lease lapsing
                LOG.debugf("task %d batch %d is held by another worker: waiting", batch.taskId(), batch.batchNo());
                yield Claimed.HELD_ELSEWHERE;
            }
            case DONE, TASK_GONE -> Claimed.NOTHING;
            case FRESH, RESUMED -> {
                run.claimed(null, false, found.badges);
                yield Claimed.TO_SEND;
            }
        };
    }

    /**
     * An offline push record: its devices' trace rows are the claim (docs/offline-push.md), committed with the other
     * records' claims of the moment. No thread waits for the commit: the run holds its claim as soon as it is
     * committed (so that a failure after it releases it), and goes on on a sender thread.
     */
    private CompletableFuture<Claimed> claimOfflineDevices(BatchRun run) {
        Map<Long, Integer> badges = OfflineLedger.badges(run.batch);
        return senders.resume(offlineLedger.claim(run.batch).thenApply(found -> {
            if (found.devices().isEmpty()) {
                return found.held() ? Claimed.HELD_ELSEWHERE : Claimed.NOTHING;
            }
            run.claimed(found.devices(), found.held(), badges);
            return Claimed.TO_SEND;
        }), run.channel);
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
        List<Pending> pending = new ArrayList<>(targets.size());
        for (Target target : targets) {
            if (run.devices != null && !run.devices.contains(target.deviceId())) {
                continue; // an offline push device another worker holds, or already sent or superseded
            }
            pending.add(new Pending(new Delivery(target, target.token(), run.badges.get(target.deviceId())),
                    target.environment() == null ? 1 : target.environment()));
        }
        return sender.send(run, run.channel, pending).thenApply(notLive -> {
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
        Map<Channel, List<Pending>> byChannel = new LinkedHashMap<>();
        for (Pending p : run.notLive) {
            PushBatch.OsRoute route = p.delivery().target().fallback();
            Optional<Channel> os = route == null ? Optional.empty() : Channel.fromWireName(route.channel());
            if (os.isEmpty()) {
                run.tally.failed(Channel.SVCPUSH, "offline, no OS channel to fall back to", 1);
                metrics.targets(Channel.SVCPUSH, Result.FAILED, 1);
                continue;
            }
            byChannel.computeIfAbsent(os.get(), c -> new ArrayList<>()).add(new Pending(
                    new Delivery(p.delivery().target(), route.token(), p.delivery().badge()), route.environment()));
        }
        CompletableFuture<?> sends = DONE;
        for (Map.Entry<Channel, List<Pending>> entry : byChannel.entrySet()) {
            sends = sends.thenCompose(none -> fallBackOn(run, entry.getKey(), entry.getValue()));
        }
        return sends.thenApply(none -> run);
    }

    /** The fallbacks of one OS channel: moved there from svcpush, and sent. */
    private CompletableFuture<List<Pending>> fallBackOn(BatchRun run, Channel os, List<Pending> moved) {
        run.tally.of(Channel.SVCPUSH).fallbackOut += moved.size();
        run.tally.of(os).fallbackIn += moved.size();
        metrics.targets(Channel.SVCPUSH, Result.FALLBACK, moved.size());
        return sender.send(run, os, moved);
    }

    /**
     * 4. Count, in one transaction: a task batch into its task's counters (unless another worker finished it first),
     * an offline push's devices into their trace rows and offline_push_daily (committed with the other records'
     * finishes of the moment, waited for on no thread). True when another live worker holds other devices of the
     * offline push record.
     */
    private CompletableFuture<Boolean> count(BatchRun run) {
        PushBatch batch = run.batch;
        if (run.isOfflinePush()) {
            return senders.resume(offlineLedger.finish(batch, run.devices, run.tally, run.channel.wireName())
                    .thenApply(sent -> {
                        run.counted();
                        return sent;
                    }), run.channel).thenApply(sent -> {
                        metrics.offlinePushSent(run.channel, batch.offline().createdMs(), sent);
                        return run.othersHold;
                    });
        }
        if (!ledger.finish(batch.taskId(), batch.batchNo(), run.tally, run.expired,
                batch.targets().stream().mapToLong(Target::deviceId).toArray())) {
            LOG.debugf("task %d batch %d was finished by another worker", batch.taskId(), batch.batchNo());
        }
        run.counted();
        return CompletableFuture.completedFuture(run.othersHold);
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
        if (run.isOfflinePush()) {
            offlineLedger.release(run.batch, run.devices);
        } else {
            ledger.release(run.batch.taskId(), run.batch.batchNo());
        }
    }
}
