package io.imcore.push.task;

import io.imcore.push.fanout.ExpansionCheckpoint;
import io.imcore.push.notify.PushRequest;
import java.time.Instant;

/** A task as the expander sees it: its request, state and the checkpoint mirrored in PostgreSQL. */
public record TaskRow(
        long taskId,
        String appId,
        TaskState state,
        PushRequest request,
        Instant showBeginAt,
        Instant showEndAt,
        ExpansionCheckpoint checkpoint,
        Long checkpointOffset) {}
