package io.imcore.push.fanout;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.push.FanoutConfig;
import io.imcore.pushcontract.Channel;
import io.imcore.pushcontract.PushBatch.Target;
import io.imcore.pushcontract.PushBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a batch into the JSON of its channel records, none over {@code im.push.fanout.record-max-bytes}: a batch
 * whose JSON is larger (long provider tokens, many devices) is cut into parts with consecutive batch numbers from its
 * own, so that Kafka never refuses a record for its size (docs/push-fanout.md "Record size"). The expansion and
 * offline push both write through it.
 */
@ApplicationScoped
public class ChannelRecords {

    /**
     * Kafka's default record limit (the producer's {@code max.request.size}, about the broker's
     * {@code message.max.bytes}) less room for the key and the record and batch headers.
     */
    static final int MAX_BUDGET = 1_000_000;
    private static final String BADGES = "badges";

    /** One record for its channel's topic: the batch (a part of the one given) and its JSON. */
    public record Encoded(PushBatch batch, byte[] json) {

        public String topic() {
            return Channel.fromWireName(batch.channel()).orElseThrow().topic();
        }
    }

    private final ObjectMapper mapper;
    private final int maxBytes;

    @Inject
    public ChannelRecords(ObjectMapper mapper, FanoutConfig config) {
        this(mapper, config.recordMaxBytes());
    }

    ChannelRecords(ObjectMapper mapper, int maxBytes) {
        if (maxBytes <= 0 || maxBytes > MAX_BUDGET) { // fails the start, not every step
            throw new IllegalArgumentException("im.push.fanout.record-max-bytes: 1 to " + MAX_BUDGET + ", not "
                    + maxBytes);
        }
        this.mapper = mapper;
        this.maxBytes = maxBytes;
    }

    /**
     * The batch's records: itself when its JSON fits, else its targets cut into as many parts as needed, in order,
     * numbered {@code batch.batchNo()}, {@code batch.batchNo() + 1}, ... (the caller numbers the next batch after
     * them). Throws when a single target's record does not fit, which the bounded message and token sizes exclude.
     */
    public List<Encoded> encode(PushBatch batch) {
        List<Encoded> records = new ArrayList<>(1);
        encode(batch, batch.targets(), records);
        return records;
    }

    private void encode(PushBatch whole, List<Target> targets, List<Encoded> records) {
        PushBatch part = part(whole, whole.batchNo() + records.size(), targets);
        byte[] json = json(part);
        if (json.length <= maxBytes) {
            records.add(new Encoded(part, json));
            return;
        }
        if (targets.size() == 1) {
            throw new IllegalStateException("a channel record of one target is " + json.length
                    + " bytes, over im.push.fanout.record-max-bytes (" + maxBytes + ")");
        }
        // about the share of the budget each part takes; a part still too large (uneven targets) is cut again
        int parts = Math.min(targets.size(), json.length / maxBytes + 1);
        for (int i = 0; i < parts; i++) {
            encode(whole, targets.subList(targets.size() * i / parts, targets.size() * (i + 1) / parts), records);
        }
    }

    /** The whole batch, or a part of it; an offline record's part keeps the badges of its own devices only. */
    private static PushBatch part(PushBatch whole, int batchNo, List<Target> targets) {
        if (targets == whole.targets()) {
            return whole;
        }
        ObjectNode message = whole.message();
        JsonNode badges = message.get(BADGES);
        if (badges != null) {
            message = message.deepCopy();
            ObjectNode own = message.putObject(BADGES);
            for (Target target : targets) {
                String device = Long.toString(target.deviceId());
                if (badges.has(device)) {
                    own.set(device, badges.get(device));
                }
            }
        }
        return new PushBatch(whole.v(), whole.taskId(), whole.appId(), batchNo, whole.channel(), message,
                whole.showEndTime(), List.copyOf(targets), whole.offline());
    }

    private byte[] json(PushBatch batch) {
        try {
            return mapper.writeValueAsBytes(batch);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a channel record must serialize", e);
        }
    }
}
