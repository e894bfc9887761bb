package io.imcore.pushworker.batch;

import io.imcore.common.events.TopicFeeder;
import io.imcore.common.kafka.KafkaClients;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch;
import io.imcore.pushworker.WorkerConfig;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * One consumer per served channel topic (group {@code push-worker.<channel>}, read_committed): it polls at most
 * {@code batches-in-flight} records, has them processed in parallel on the {@link SenderPool} shared by every
 * channel, and commits per partition up to the first record that did not finish; that one and the ones after it are
 * read again. Nothing is queued beyond one poll, so a slow provider slows the poll (back-pressure), and the consumer
 * lag shows it. On shutdown every consumer finishes the round it is in (abandoning retry waits), commits and leaves
 * its group.
 */
@ApplicationScoped
public class ChannelConsumers {

    private static final Logger LOG = Logger.getLogger(ChannelConsumers.class);

    private final WorkerConfig config;
    private final BatchDispatcher dispatcher;
    private final SenderPool senders;
    private final WorkerMetrics metrics;
    private final TopicFeeder feeder; // for its record reading
    private final KafkaClients kafka;
    private final boolean enabled;
    private final List<ChannelConsumer> consumers = new ArrayList<>();

    public ChannelConsumers(WorkerConfig config, BatchDispatcher dispatcher, SenderPool senders, WorkerMetrics metrics,
            TopicFeeder feeder, KafkaClients kafka,
            @ConfigProperty(name = "im.push.worker.enabled", defaultValue = "true") boolean enabled) {
        this.config = config;
        this.dispatcher = dispatcher;
        this.senders = senders;
        this.metrics = metrics;
        this.feeder = feeder;
        this.kafka = kafka;
        this.enabled = enabled;
    }

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        for (String name : config.channels()) {
            Channel channel = Channel.fromWireName(name.trim()).orElseThrow(() ->
                    new IllegalArgumentException("im.push.worker.channels: unknown channel " + name));
            ChannelConsumer consumer = new ChannelConsumer(channel);
            consumers.add(consumer);
            consumer.thread.start();
        }
        LOG.infof("consuming %s", config.channels());
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        senders.stop();
        consumers.forEach(c -> c.running = false);
        for (ChannelConsumer consumer : consumers) {
            consumer.thread.join(15_000);
        }
        senders.close();
    }

    private final class ChannelConsumer {

        private final Channel channel;
        private final KafkaConsumer<String, String> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        ChannelConsumer(Channel channel) {
            this.channel = channel;
            Map<String, Object> props = new HashMap<>();
            props.put(ConsumerConfig.GROUP_ID_CONFIG, channel.workerGroup());
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchesInFlight());
            // A round takes batches-in-flight records (~83 KB each, ~36 KB compressed); the client's default fetch
            // (1 MiB per partition, 6 partitions locally) could buffer ~6 MiB compressed per channel, eight channels'
            // worth in the 128 MiB heap: smaller fetches cut the full collections by a third and RSS by ~34 MiB
            // (docs/benchmarks.md, "Memory and the JVM"). A fetch still returns at least one record batch, however
            // large.
            props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 256 * 1024);
            props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 1024 * 1024);
            // a round waits for its slowest batch, retries included (bounded by max-attempts and max-backoff)
            props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, (int) TimeUnit.MINUTES.toMillis(10));
            // the kit's consumer reads committed transactions only and commits nothing by itself: round() commits
            this.consumer = kafka.consumer(props, new StringDeserializer(), new StringDeserializer());
            new KafkaClientMetrics(consumer).bindTo(metrics.registry());
            this.thread = new Thread(this::loop, "push-" + channel.wireName() + "-consumer");
            this.thread.setDaemon(true);
        }

        private void loop() {
            try {
                consumer.subscribe(List.of(channel.topic()));
                while (running) {
                    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                    if (!records.isEmpty()) {
                        round(records);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.errorf(e, "%s consumer stopped", channel.wireName());
            } finally {
                consumer.close(Duration.ofSeconds(5));
            }
        }

        /** Processes one poll's records in parallel, then commits what finished. */
        private void round(ConsumerRecords<String, String> records) throws InterruptedException {
            Map<ConsumerRecord<String, String>, Future<Boolean>> results = new HashMap<>();
            // a batch delivered twice in one poll is processed once: the copies share the first one's result
            Map<String, Future<Boolean>> byKey = new HashMap<>();
            metrics.inFlight(channel).set(records.count());
            for (ConsumerRecord<String, String> record : records) {
                results.put(record, byKey.computeIfAbsent(String.valueOf(record.key()), key -> handle(record)));
            }
            Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
            boolean replay = false;
            for (TopicPartition partition : records.partitions()) {
                long next = -1;
                for (ConsumerRecord<String, String> record : records.records(partition)) {
                    if (!finished(results.get(record))) {
                        consumer.seek(partition, record.offset());
                        replay = true;
                        break;
                    }
                    next = record.offset() + 1;
                }
                if (next >= 0) {
                    commit.put(partition, new OffsetAndMetadata(next));
                }
            }
            metrics.inFlight(channel).set(0);
            if (!commit.isEmpty()) {
                try {
                    consumer.commitSync(commit);
                } catch (CommitFailedException | RebalanceInProgressException e) {
                    // the partitions moved to another replica while this round ran (past max.poll.interval): the
                    // records go to their new holder, whose claims find these batches done; keep consuming
                    LOG.warnf("%s: offsets not committed, the group rebalanced: %s", channel.wireName(),
                            e.getMessage());
                }
            }
            if (replay && running) {
                Thread.sleep(1_000); // the database or a provider is away: do not spin
            }
        }

        private boolean finished(Future<Boolean> result) throws InterruptedException {
            try {
                return result.get();
            } catch (java.util.concurrent.ExecutionException e) {
                return false;
            }
        }

        /**
         * Completes with true when the record is done with (processed, counted before, or unreadable and skipped),
         * false when it is to be read again.
         */
        private CompletableFuture<Boolean> handle(ConsumerRecord<String, String> record) {
            CompletableFuture<Boolean> result = new CompletableFuture<>();
            senders.execute(channel, () -> {
                Optional<PushBatch> read = feeder.read(record, PushBatch.class); // logs and skips what is unreadable
                if (read.isEmpty()) {
                    result.complete(true);
                    return;
                }
                PushBatch batch = read.get();
                if (batch.v() != PushBatch.VERSION) {
                    LOG.errorf("skipping record %s of format version %d", batch.key(), batch.v());
                    result.complete(true);
                    return;
                }
                dispatcher.process(batch).whenComplete((done, failure) -> result.complete(doneWith(batch, failure)));
            }, failure -> result.complete(doneWith(null, failure)));
            return result;
        }

        /** True when the batch (null: a record not yet read) ended well; failures other than stopping are logged. */
        private boolean doneWith(PushBatch batch, Throwable failure) {
            if (failure == null) {
                return true;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (!(cause instanceof SenderPool.Abandoned)) {
                LOG.warnf("%s failed, to be read again: %s", batch == null ? "a record"
                        : "task " + batch.taskId() + " batch " + batch.batchNo(), cause.toString());
            }
            return false;
        }
    }
}
