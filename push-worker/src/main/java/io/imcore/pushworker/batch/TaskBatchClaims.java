package io.imcore.pushworker.batch;

import io.imcore.common.store.Database;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushcontract.Receipts;
import io.imcore.pushworker.channel.Notification;
import jakarta.inject.Singleton;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * A task's batch: claimed and counted through its push_worker_batches row ({@link BatchLedger}), its devices' badges
 * raised or set on the first claim, its receipts expected before anything is sent.
 */
@Singleton
final class TaskBatchClaims implements RecordClaims {

    /**
     * Channels whose payload carries the app-icon badge, so the server keeps the device's counter for them (Huawei
     * only with a badge_class: its badge needs the launcher class).
     */
    private static final Set<Channel> BADGE_CHANNELS =
            EnumSet.of(Channel.APNS, Channel.FCM, Channel.HUAWEI, Channel.SVCPUSH);
    private static final Logger LOG = Logger.getLogger(TaskBatchClaims.class);

    /** Where the batch stands, and its devices' badge numbers (empty for channels without a badge). */
    private record BatchClaim(BatchLedger.Claim claim, Map<Long, Integer> badges) {}

    private final Database database;
    private final BatchLedger ledger;

    TaskBatchClaims(Database database, BatchLedger ledger) {
        this.database = database;
        this.ledger = ledger;
    }

    @Override
    public long notificationId(PushBatch batch) {
        return batch.taskId();
    }

    /** The batch's claim row, and its devices' badges raised or set on the first claim (read back after), at once. */
    @Override
    public CompletableFuture<Found> claim(BatchRun run) {
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
        return CompletableFuture.completedFuture(switch (found.claim) {
            case HELD -> {
                // another live worker sends it (a rebalance gave both the record): its outcome, or its lease lapsing
                LOG.debugf("task %d batch %d is held by another worker: waiting", batch.taskId(), batch.batchNo());
                yield Found.HELD_ELSEWHERE;
            }
            case DONE, TASK_GONE -> Found.NOTHING;
            case FRESH, RESUMED -> {
                run.claimed(null, false, found.badges);
                yield Found.TO_SEND;
            }
        });
    }

    /** Into the task's counters, in one transaction, unless another worker finished the batch first. */
    @Override
    public CompletableFuture<Boolean> count(BatchRun run) {
        PushBatch batch = run.batch;
        if (!ledger.finish(batch.taskId(), batch.batchNo(), run.tally, run.expired,
                batch.targets().stream().mapToLong(Target::deviceId).toArray())) {
            LOG.debugf("task %d batch %d was finished by another worker", batch.taskId(), batch.batchNo());
        }
        run.counted();
        return CompletableFuture.completedFuture(false);
    }

    @Override
    public void release(BatchRun run) {
        ledger.release(run.batch.taskId(), run.batch.batchNo());
    }
}
