package io.imcore.push;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * Audience expansion and fan-out settings ({@code im.push.fanout.*}, docs/push-fanout.md): the expansion's (fanout),
 * and read by the task feature (the request_id window) and by offline push (the records' compression) too.
 */
@ConfigMapping(prefix = "im.push.fanout")
public interface FanoutConfig {

    /** Whether this replica expands tasks (off only in tests that drive the expansion themselves). */
    @WithDefault("true")
    boolean enabled();

    /** Tasks this replica expands at once (one Kafka producer each), so small tasks do not wait behind a big one. */
    @WithDefault("2")
    int threads();

    /** Names this replica's transactional producer; a restarted replica with the same id fences its predecessor. */
    Optional<String> replicaId();

    /** Devices read and routed per step; one step is one Kafka transaction and one checkpoint. */
    @WithDefault("5000")
    int pageSize();

    /** Targets per channel record: {@code channel=size} pairs; channels not listed use {@link #defaultBatchSize()}. */
    @WithDefault("vendor_a=1000,vendor_b=1000,vendor_c=1000,vendor_d=1000,vendor_e=1000")
    String batchSizes();

    @WithDefault("500")
    int defaultBatchSize();

    /**
     * The most bytes of one channel record's JSON (task and offline records alike): a batch over it is cut into
     * several records. At most 1,000,000, below Kafka's 1 MiB record limit with room for the key and headers.
     */
    @WithDefault("900000")
    int recordMaxBytes();

    /**
     * The channel records' Kafka compression ({@code compression.type}: lz4, snappy, zstd, gzip or none). lz4 stores
     * a record in 43 % of its bytes for about 0.5 µs of push-service CPU per target; none spends no CPU on it, for
     * a host where CPU, not the brokers' disks or network, is short (docs/push-fanout.md "Compression").
     */
    @WithDefault("lz4")
    String compression();

    /** How often a replica looks for due tasks it was not told about (scheduled ones, other replicas' ones). */
    @WithDefault("500MS")
    Duration pollInterval();

    /** The broker aborts a transaction left open this long by a crashed replica; a resume waits for that. */
    @WithDefault("15S")
    Duration transactionTimeout();

    /**
     * Consecutive failed expansion attempts after which a task ends {@code failed}. The waits between attempts double
     * from {@link #failureBackoff()} up to {@link #maxFailureBackoff()}, so a dependency outage of several minutes
     * (Kafka, PostgreSQL) is ridden out: with the defaults, about 13 minutes pass before a task is given up.
     */
    @WithDefault("10")
    int maxFailures();

    @WithDefault("1S")
    Duration failureBackoff();

    @WithDefault("5M")
    Duration maxFailureBackoff();

    /** A setting.request_id repeated within this window pushes nothing and returns the first task_id. */
    @WithDefault("30D")
    Duration requestIdWindow();
}
