package io.imcore.push.task;

import io.imcore.common.kafka.Topics;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far a task's expansion got, format version {@value #VERSION}: written to {@value #TOPIC} (key: task_id) in the
 * same Kafka transaction as the step's channel records, then mirrored into push_tasks. Because the records and the
 * checkpoint commit together, a resume after a crash starts exactly where the committed records end.
 *
 * @param cursorDeviceId   the last device_id examined (the audience streams in device_id order)
 * @param batchesTotal     channel records written so far; the next record's batch_no
 * @param targets          devices routed per channel so far (the tasks' target counters)
 */
public record ExpansionCheckpoint(
        int v,
        long taskId,
        long cursorDeviceId,
        int pages,
        long devicesExpanded,
        int batchesTotal,
        Map<String, Integer> targets) {

    public static final String TOPIC = Topics.PUSH_EXPANSION;
    public static final int VERSION = 1;

    public static ExpansionCheckpoint start(long taskId) {
        return new ExpansionCheckpoint(VERSION, taskId, 0, 0, 0, 0, new TreeMap<>());
    }

    /** The checkpoint after one more step. */
    public ExpansionCheckpoint next(long cursor, int examined, int batches, Map<String, Integer> routed) {
        Map<String, Integer> sum = new TreeMap<>(targets);
        routed.forEach((channel, count) -> sum.merge(channel, count, Integer::sum));
        return new ExpansionCheckpoint(VERSION, taskId, cursor, pages + 1, devicesExpanded + examined,
                batchesTotal + batches, sum);
    }
}
