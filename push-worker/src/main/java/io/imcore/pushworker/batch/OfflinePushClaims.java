package io.imcore.pushworker.batch;

import io.imcore.pushcontract.PushBatch;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * An offline push record: its devices' trace rows are the claim and the count ({@link OfflineLedger},
 * docs/offline-push.md), committed with the other records' claims and finishes of the moment; no thread waits for
 * those commits: the run goes on on a sender thread of its channel once they are done.
 */
@Singleton
final class OfflinePushClaims implements RecordClaims {

    private final OfflineLedger ledger;
    private final SenderPool senders;
    private final WorkerMetrics metrics;

    OfflinePushClaims(OfflineLedger ledger, SenderPool senders, WorkerMetrics metrics) {
        this.ledger = ledger;
        this.senders = senders;
        this.metrics = metrics;
    }

    /** An offline push has no task: its notification carries the message as -msg_id. */
    @Override
    public long notificationId(PushBatch batch) {
        return -batch.offline().msgId();
    }

    /**
     * The record's devices still queued (or whose holder's lease lapsed); the run holds its claim as soon as it is
     * committed, so that a failure after it releases it.
     */
    @Override
    public CompletableFuture<Found> claim(BatchRun run) {
        Map<Long, Integer> badges = OfflineLedger.badges(run.batch);
        return senders.resume(ledger.claim(run.batch).thenApply(found -> {
            if (found.devices().isEmpty()) {
                return found.held() ? Found.HELD_ELSEWHERE : Found.NOTHING;
            }
            run.claimed(found.devices(), found.held(), badges);
            return Found.TO_SEND;
        }), run.channel);
    }

    /** Each claimed device's outcome into its trace row and the day's counts. */
    @Override
    public CompletableFuture<Boolean> count(BatchRun run) {
        PushBatch batch = run.batch;
        return senders.resume(ledger.finish(batch, run.devices, run.tally, run.channel.wireName())
                .thenApply(sent -> {
                    run.counted();
                    return sent;
                }), run.channel).thenApply(sent -> {
                    metrics.offlinePushSent(run.channel, batch.offline().createdMs(), sent);
                    return run.othersHold;
                });
    }

    @Override
    public void release(BatchRun run) {
        ledger.release(run.batch, run.devices);
    }
}
