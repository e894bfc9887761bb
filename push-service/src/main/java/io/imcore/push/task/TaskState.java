package io.imcore.push.task;

import java.util.Locale;

/** A push task's life (docs/push-fanout.md). */
public enum TaskState {
    /** Durably stored, waiting for an expander. */
    ACCEPTED,
    /** show_begin_time is in the future: expanded when it comes. */
    SCHEDULED,
    /** The audience is being expanded onto the channel topics. */
    EXPANDING,
    /** Every batch is on its topic; push-worker is sending them. */
    DISPATCHING,
    /** Every batch is processed (or there was no reachable device). */
    DONE,
    /** show_end_time passed before the task was fully sent. */
    EXPIRED,
    /** Its expansion failed im.push.fanout.max-failures times in a row (the reason is in task/detail). */
    FAILED,
    /** Cancelled while scheduled (POST /push/task/cancel): never expanded. */
    CANCELLED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TaskState fromWireName(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }
}
