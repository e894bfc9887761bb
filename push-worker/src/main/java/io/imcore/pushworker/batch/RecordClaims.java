package io.imcore.pushworker.batch;

import io.imcore.pushcontract.PushBatch;
import java.util.concurrent.CompletableFuture;

/**
 * How one kind of channel record is claimed before it is sent, counted after, and given up on a failure: a task's
 * batch ({@link TaskBatchClaims}) or an offline push record ({@link OfflinePushClaims}). {@link BatchDispatcher}
 * runs the same stages for both (docs/push-worker.md "One batch"): claim, deliver, fall back, count.
 */
sealed interface RecordClaims permits TaskBatchClaims, OfflinePushClaims {

    /** What a claim left this worker with. */
    enum Found {
        /** A part of the record (all of a task batch) to send now. */
        TO_SEND,
        /** Nothing: counted before, its task gone, or every device of the offline push sent or superseded. */
        NOTHING,
        /** Nothing yet: another live worker holds it under a standing lease. */
        HELD_ELSEWHERE
    }

    /** The id the adapters give providers for receipts: the task's, or an offline push's message as -msg_id. */
    long notificationId(PushBatch batch);

    /**
     * Claims the record: on {@link Found#TO_SEND} the run holds the claimed part and its badges
     * ({@link BatchRun#claimed}). Completes on a sender thread of the record's channel.
     */
    CompletableFuture<Found> claim(BatchRun run);

    /**
     * Counts what sending the claimed part came to; completes on a sender thread with true when another live worker
     * holds other devices of the record (claimed again once it is done or its lease lapsed).
     */
    CompletableFuture<Boolean> count(BatchRun run);

    /** Gives the claim up without counting (a failure, or stopping): the record is read again. */
    void release(BatchRun run);
}
