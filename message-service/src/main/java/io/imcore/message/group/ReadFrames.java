package io.imcore.message.group;

import io.imcore.common.store.Database;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationService.GroupRead;
import io.imcore.message.conversation.ConversationStore;
import io.imcore.message.grouplimits.GroupLimitsService;
import io.imcore.message.live.LiveFrames;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Read frames to the senders of group messages (docs/live-protocol.md), in groups of at most the app's
 * receipt_frames_max_members: a member's read receipt is noted for each sender of the messages it read, and every
 * {@code im.message.groups.read-frame-window} each sender's devices get one frame per conversation with every reader
 * noted since, {@code {"type":"read","conversation_id":<group>,"reads":[{"user_id":..,"msg_id":..},...]}} (up to
 * {@value #READS_PER_FRAME} readers a frame): a whole group reading at once is a few frames, not one per reader.
 * Each replica batches the receipts it took.
 */
@ApplicationScoped
public class ReadFrames {

    private static final Logger LOG = Logger.getLogger(ReadFrames.class);
    /** A receipt is noted for the senders of the last this many messages it read. */
    static final int SENDERS_OF_LAST = 200;
    /** Keeps a frame under LiveFrames.MAX_FRAME_CHARS. */
    static final int READS_PER_FRAME = 50;

    /** One sender's frame in one group. */
    private record Key(String appId, long groupId, long senderId) {}

    private final Database database;
    private final GroupStore groups;
    private final ConversationStore conversations;
    private final GroupLimitsService limits;
    private final LiveFrames frames;
    /** Per sender and group: reader → the msg_id read up to, the newest noted. */
    private final Map<Key, Map<Long, Long>> pending = new ConcurrentHashMap<>();

    public ReadFrames(Database database, GroupStore groups, ConversationStore conversations,
            GroupLimitsService limits, LiveFrames frames) {
        this.database = database;
        this.groups = groups;
        this.conversations = conversations;
        this.limits = limits;
        this.frames = frames;
    }

    /** Notes a committed read receipt for the senders it concerns (two reads by primary key). */
    void noted(@Observes GroupRead read) {
        List<Long> senders;
        try {
            int maxMembers = limits.of(read.appId()).receiptFramesMaxMembers();
            if (maxMembers == 0) {
                return;
            }
            senders = database.read(c -> {
                if (conversations.memberIds(c, read.conversationId(), maxMembers + 1).size() > maxMembers) {
                    return List.<Long>of();
                }
                int messagesRead = (int) Math.min(SENDERS_OF_LAST, read.move().toSeq() - read.move().fromSeq());
                return groups.sendersUpTo(c, read.conversationId(), read.move().toMsgId(), messagesRead);
            });
        } catch (RuntimeException e) { // the receipt is stored: only its frame is lost
            LOG.warnf("read frames of group %d not noted: %s", read.groupId(), e.getMessage());
            return;
        }
        for (long sender : senders) {
            if (sender != read.readerId() && sender != ConversationKind.SYSTEM_SENDER) {
                // atomic with flush's remove: a receipt noted meanwhile goes into the next window's map
                pending.compute(new Key(read.appId(), read.groupId(), sender), (k, reads) -> {
                    Map<Long, Long> noted = reads == null ? new HashMap<>() : reads;
                    noted.merge(read.readerId(), read.move().toMsgId(), Math::max);
                    return noted;
                });
            }
        }
    }

    @Scheduled(every = "${im.message.groups.read-frame-window}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void flush() {
        for (Key key : List.copyOf(pending.keySet())) {
            Map<Long, Long> reads = pending.remove(key);
            if (reads == null || reads.isEmpty()) {
                continue;
            }
            List<Map<String, Object>> entries = new ArrayList<>();
            reads.forEach((reader, msgId) -> entries.add(Map.of("user_id", reader, "msg_id", msgId)));
            try {
                for (int from = 0; from < entries.size(); from += READS_PER_FRAME) {
                    Map<String, Object> frame = new LinkedHashMap<>();
                    frame.put("type", "read");
                    frame.put("conversation_id", key.groupId());
                    frame.put("reads", entries.subList(from, Math.min(entries.size(), from + READS_PER_FRAME)));
                    frames.send(key.appId(), Set.of(key.senderId()), frame);
                }
            } catch (RuntimeException e) { // a lost frame: the sender reads the receipts over HTTP
                LOG.warnf("read frames of group %d not sent: %s", key.groupId(), e.getMessage());
            }
        }
    }
}
