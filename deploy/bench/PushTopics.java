// What one push expansion wrote to Kafka (deploy/bench/push.sh runs it; docs/benchmarks.md). Needs the Kafka
// client jars the local stack already has:  java -cp ".local/kafka/libs/*" deploy/bench/PushTopics.java ...
//
//   snapshot FILE                      end offsets and on-disk sizes of the push.* topics, written to FILE
//   count FILE TASK_ID PAYLOADS [N]    reads (read_committed) every record written since the snapshot, keeps
//                                      those of the task (channel batches keyed "TASK_ID:batch_no", checkpoints
//                                      on push.expansion keyed "TASK_ID"), prints
//                                        TOPICS|records|key+value bytes|avg bytes|on-disk bytes since snapshot|per topic
//                                      and writes N (1000) of the task's record values, sampled uniformly, one per
//                                      line, to PAYLOADS (for ProducerPerformance --payload-file)
// Environment: KAFKA_BOOTSTRAP (127.0.0.1:19092).

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

public class PushTopics {

    static final List<String> TOPICS = List.of("push.ios", "push.cloud", "push.vendor_a", "push.vendor_b",
            "push.vendor_c", "push.vendor_d", "push.vendor_e", "push.svcpush", "push.expansion");

    public static void main(String[] args) throws Exception {
        String bootstrap = System.getenv().getOrDefault("KAFKA_BOOTSTRAP", "127.0.0.1:19092");
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            switch (args.length > 0 ? args[0] : "") {
                case "snapshot" -> snapshot(admin, Path.of(args[1]));
                case "count" -> count(admin, bootstrap, Path.of(args[1]), args[2], Path.of(args[3]),
                        args.length > 4 ? Integer.parseInt(args[4]) : 1000);
                default -> {
                    System.err.println("usage: PushTopics snapshot FILE | count FILE TASK_ID PAYLOADS [N]");
                    System.exit(2);
                }
            }
        }
    }

    static List<TopicPartition> partitions(Admin admin) throws Exception {
        List<TopicPartition> all = new ArrayList<>();
        admin.describeTopics(TOPICS).allTopicNames().get().forEach((topic, description) ->
                description.partitions().forEach(p -> all.add(new TopicPartition(topic, p.partition()))));
        return all;
    }

    static Map<TopicPartition, Long> endOffsets(Admin admin, List<TopicPartition> partitions,
            IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
        partitions.forEach(p -> specs.put(p, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all().get()
                .forEach((p, info) -> ends.put(p, info.offset()));
        return ends;
    }

    /** Bytes on disk per partition of the push.* topics (the local stack has one broker). */
    static Map<TopicPartition, Long> sizes(Admin admin) throws Exception {
        List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(Node::id).toList();
        Map<TopicPartition, Long> sizes = new HashMap<>();
        for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> e : dir.replicaInfos().entrySet()) {
                    if (TOPICS.contains(e.getKey().topic())) {
                        sizes.merge(e.getKey(), e.getValue().size(), Long::sum);
                    }
                }
            }
        }
        return sizes;
    }

    static void snapshot(Admin admin, Path file) throws Exception {
        List<TopicPartition> partitions = partitions(admin);
        Map<TopicPartition, Long> ends = endOffsets(admin, partitions, IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> sizes = sizes(admin);
        Properties out = new Properties();
        for (TopicPartition p : partitions) {
            out.setProperty("offset." + p, Long.toString(ends.get(p)));
            out.setProperty("size." + p, Long.toString(sizes.getOrDefault(p, 0L)));
        }
        try (OutputStream o = Files.newOutputStream(file)) {
            out.store(o, "push.* end offsets and sizes");
        }
    }

    static void count(Admin admin, String bootstrap, Path file, String taskId, Path payloads, int samples)
            throws Exception {
        Properties before = new Properties();
        try (var in = Files.newInputStream(file)) {
            before.load(in);
        }
        List<TopicPartition> partitions = partitions(admin);
        Map<TopicPartition, Long> ends = endOffsets(admin, partitions, IsolationLevel.READ_COMMITTED);
        Map<TopicPartition, Long> sizes = sizes(admin);
        long diskDelta = 0;
        for (TopicPartition p : partitions) {
            diskDelta += sizes.getOrDefault(p, 0L) - Long.parseLong(before.getProperty("size." + p, "0"));
        }

        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        String batchPrefix = taskId + ":";
        Map<String, long[]> perTopic = new TreeMap<>(); // topic -> {records, bytes}
        List<byte[]> reservoir = new ArrayList<>();
        Random random = new Random(42);
        long seen = 0;
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            for (TopicPartition p : partitions) {
                consumer.seek(p, Long.parseLong(before.getProperty("offset." + p, "0")));
            }
            long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("did not reach the end offsets in 5 minutes");
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String key = r.key();
                    boolean ours = key != null && (key.startsWith(batchPrefix)
                            || (r.topic().equals("push.expansion") && key.equals(taskId)));
                    if (!ours) {
                        continue;
                    }
                    long bytes = key.length() + (r.value() == null ? 0 : r.value().length);
                    long[] t = perTopic.computeIfAbsent(r.topic(), k -> new long[2]);
                    t[0]++;
                    t[1] += bytes;
                    seen++;
                    if (reservoir.size() < samples) {
                        reservoir.add(r.value());
                    } else {
                        long j = (long) (random.nextDouble() * seen);
                        if (j < samples) {
                            reservoir.set((int) j, r.value());
                        }
                    }
                }
            }
        }
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(payloads))) {
            for (byte[] value : reservoir) {
                o.write(value);
                o.write('\n');
            }
        }
        long records = 0;
        long bytes = 0;
        StringBuilder detail = new StringBuilder();
        for (Map.Entry<String, long[]> e : perTopic.entrySet()) {
            records += e.getValue()[0];
            bytes += e.getValue()[1];
            detail.append(detail.length() == 0 ? "" : ",").append(e.getKey()).append('=').append(e.getValue()[0])
                    .append('/').append(e.getValue()[1]);
        }
        System.out.printf(Locale.ROOT, "TOPICS|%d|%d|%.0f|%d|%s%n", records, bytes,
                records == 0 ? 0.0 : (double) bytes / records, diskDelta, detail);
    }
}
