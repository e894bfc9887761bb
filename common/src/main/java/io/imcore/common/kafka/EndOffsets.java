package io.imcore.common.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/** Where partitions end, for a reader of each isolation level. */
public final class EndOffsets {

    private static final Duration PAUSE = Duration.ofMillis(100);

    private EndOffsets() {}

    /** The end offsets: past the last record written (read_uncommitted), or the last stable offset (read_committed). */
    public static Map<TopicPartition, Long> of(Admin admin, Collection<TopicPartition> partitions,
            IsolationLevel isolation) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        try {
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all().get()
                    .forEach((partition, end) -> ends.put(partition, end.offset()));
            return ends;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("interrupted while reading the end offsets of " + partitions, e);
        } catch (ExecutionException e) {
            throw new KafkaException("cannot read the end offsets of " + partitions, e.getCause());
        }
    }

    /**
     * The read_committed end offsets once every transaction open on the partitions when called is decided, or empty
     * when one is still open after {@code wait}. A transaction still open hides the records committed after it from a
     * read_committed reader; a writer killed mid-transaction leaves one open until the broker aborts it (the writer's
     * transaction timeout). A reader that stops at the returned offsets so misses no record committed before the call.
     */
    public static Optional<Map<TopicPartition, Long>> afterOpenTransactions(Admin admin,
            Collection<TopicPartition> partitions, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        Map<TopicPartition, Long> written = of(admin, partitions, IsolationLevel.READ_UNCOMMITTED);
        while (true) {
            Map<TopicPartition, Long> stable = of(admin, partitions, IsolationLevel.READ_COMMITTED);
            if (partitions.stream().allMatch(p -> stable.get(p) >= written.get(p))) {
                return Optional.of(stable);
            }
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            try {
                Thread.sleep(PAUSE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaException("interrupted while waiting for open transactions", e);
            }
        }
    }
}
