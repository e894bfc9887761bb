// What the channel records' encoding costs per target (docs/benchmarks.md "Channel records' encoding"): Jackson
// writing and reading PushBatch, and Kafka's codecs, on a sample of a real expansion's records.
// Run after deploy/bench/push.sh (it leaves the sample in .local/bench/push-payloads.txt), with push-worker's
// packaged jars on the class path:
//   java -cp "push-worker/target/quarkus-app/lib/main/*" deploy/bench/RecordCodec.java [PAYLOADS] [ROUNDS]
// Each encoding is timed ROUNDS (30) times over every channel batch of the sample in one JVM; the best third of the
// rounds is printed (the JIT has compiled the code by then, as in a service that has run a few pushes).
// Encodings: the services' JSON (one object per target, as on the topics), the same read from a String (push-worker
// reads the record value as a String), and positional arrays per target (@JsonFormat ARRAY: no field names).
// LZ4: lz4-java's pure-Java fast compressor on 64 KiB blocks, the instance and block size Kafka's lz4 codec uses.
// Then each of Kafka's codecs (the producer's compression.type) on the same JSON records, through kafka-clients' own
// Compression streams: compress and decompress time per target, and the ratio.

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.api.JsonConfig;
import io.imcore.pushcontract.PushBatch;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.ByteBufferOutputStream;

public class RecordCodec {

    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    abstract static class Positional {}

    /** Nanoseconds of one round over every batch. */
    interface Round {
        long run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Path payloads = Path.of(args.length > 0 ? args[0] : ".local/bench/push-payloads.txt");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        ObjectMapper json = JsonConfig.apply(new ObjectMapper()).findAndRegisterModules();
        ObjectMapper positional = JsonConfig.apply(new ObjectMapper()).findAndRegisterModules()
                .addMixIn(PushBatch.Target.class, Positional.class)
                .addMixIn(PushBatch.OsRoute.class, Positional.class);
        List<PushBatch> batches = new ArrayList<>();
        for (String line : Files.readAllLines(payloads)) {
            if (line.contains("\"targets\":[")) { // the sample also holds expansion checkpoints
                batches.add(json.readValue(line, PushBatch.class));
            }
        }
        long targets = batches.stream().mapToLong(b -> b.targets().size()).sum();
        if (targets == 0) {
            throw new IllegalStateException("no channel batch in " + payloads);
        }
        System.out.printf("%s: %d channel batches, %d targets, %d rounds, %s%n", payloads, batches.size(), targets,
                rounds, System.getProperty("java.vm.version"));
        List<byte[]> jsonRecords = encode(json, batches);
        for (ObjectMapper mapper : List.of(json, positional)) {
            String name = mapper == json ? "JSON objects" : "positional arrays";
            List<byte[]> encoded = mapper == json ? jsonRecords : encode(mapper, batches);
            List<String> strings = encoded.stream().map(b -> new String(b, StandardCharsets.UTF_8)).toList();
            long bytes = encoded.stream().mapToLong(b -> b.length).sum();
            report(name + ", write", targets, rounds, () -> {
                long start = System.nanoTime();
                for (PushBatch batch : batches) {
                    mapper.writeValueAsBytes(batch);
                }
                return System.nanoTime() - start;
            });
            report(name + ", read from bytes", targets, rounds, () -> {
                long start = System.nanoTime();
                for (byte[] value : encoded) {
                    mapper.readValue(value, PushBatch.class);
                }
                return System.nanoTime() - start;
            });
            report(name + ", read from a String", targets, rounds, () -> {
                long start = System.nanoTime();
                for (String value : strings) {
                    mapper.readValue(value, PushBatch.class);
                }
                return System.nanoTime() - start;
            });
            LZ4Compressor lz4 = LZ4Factory.fastestJavaInstance().fastCompressor();
            byte[] block = new byte[lz4.maxCompressedLength(65536)];
            long[] compressed = new long[1];
            report(name + ", LZ4 compress", targets, rounds, () -> {
                long start = System.nanoTime();
                long out = 0;
                for (byte[] value : encoded) {
                    for (int offset = 0; offset < value.length; offset += 65536) {
                        out += lz4.compress(value, offset, Math.min(65536, value.length - offset), block, 0,
                                block.length);
                    }
                }
                compressed[0] = out;
                return System.nanoTime() - start;
            });
            System.out.printf("  %s: %d bytes per target, LZ4 ratio %.2f%n", name, bytes / targets,
                    (double) bytes / compressed[0]);
        }
        for (CompressionType type : List.of(CompressionType.LZ4, CompressionType.SNAPPY, CompressionType.ZSTD,
                CompressionType.GZIP)) {
            kafkaCodec(type, jsonRecords, targets, rounds);
        }
    }

    private static List<byte[]> encode(ObjectMapper mapper, List<PushBatch> batches) throws Exception {
        List<byte[]> encoded = new ArrayList<>();
        for (PushBatch batch : batches) {
            encoded.add(mapper.writeValueAsBytes(batch));
        }
        return encoded;
    }

    /** Compresses and decompresses every record with one of Kafka's codecs, as its producer and consumer do. */
    private static void kafkaCodec(CompressionType type, List<byte[]> records, long targets, int rounds)
            throws Exception {
        Compression codec = Compression.of(type).build();
        List<ByteBuffer> compressed = new ArrayList<>();
        long[] outBytes = new long[1];
        report("Kafka " + type.name + ", compress", targets, rounds, () -> {
            long start = System.nanoTime();
            compressed.clear();
            outBytes[0] = 0;
            for (byte[] record : records) {
                ByteBufferOutputStream out = new ByteBufferOutputStream(record.length / 2);
                try (OutputStream stream = codec.wrapForOutput(out, RecordBatch.CURRENT_MAGIC_VALUE)) {
                    stream.write(record);
                }
                ByteBuffer buffer = out.buffer().flip();
                outBytes[0] += buffer.remaining();
                compressed.add(buffer);
            }
            return System.nanoTime() - start;
        });
        byte[] sink = new byte[65536];
        report("Kafka " + type.name + ", decompress", targets, rounds, () -> {
            long start = System.nanoTime();
            for (ByteBuffer buffer : compressed) {
                try (InputStream stream = codec.wrapForInput(buffer.duplicate(), RecordBatch.CURRENT_MAGIC_VALUE,
                        BufferSupplier.NO_CACHING)) {
                    while (stream.read(sink) >= 0) {
                        // drained: the consumer reads every byte
                    }
                }
            }
            return System.nanoTime() - start;
        });
        long in = records.stream().mapToLong(r -> r.length).sum();
        System.out.printf("  Kafka %s: ratio %.2f%n", type.name, (double) in / outBytes[0]);
    }

    private static void report(String what, long targets, int rounds, Round round) throws Exception {
        long[] times = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            times[i] = round.run();
        }
        Arrays.sort(times);
        long[] best = Arrays.copyOf(times, Math.max(1, rounds / 3));
        System.out.printf("  %-40s %.3f µs per target (median of the best third; worst round %.3f)%n", what,
                best[best.length / 2] / 1e3 / targets, times[rounds - 1] / 1e3 / targets);
    }
}
