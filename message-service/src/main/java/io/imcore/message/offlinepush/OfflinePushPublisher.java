package io.imcore.message.offlinepush;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.concurrent.PollingLoop;
import io.imcore.common.events.MessageEvent;
import io.imcore.common.events.MessageEvent.Recipient;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.AdvisoryLocks;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.presence.PresenceStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Turns the due rows of {@code offline_push_queue} into {@value MessageEvent#TOPIC} records (through the outbox, in
 * the transaction that deletes the rows): each message with its recipients, their unread counts and their live
 * devices; after the ack window, the live devices whose user did not acknowledge it; the recall of a message
 * announced before, with its recipients ({@link OfflinePushQueue#recall}) (docs/offline-push.md). One
 * replica publishes at a time (advisory lock), in due order, so one conversation's events keep their order.
 */
@ApplicationScoped
public class OfflinePushPublisher {

    private static final Logger LOG = Logger.getLogger(OfflinePushPublisher.class);
    static final long PUBLISHER_LOCK = 0x0ff1_1e5bL;
    private static final TypeReference<List<Recipient>> RECIPIENTS = new TypeReference<>() {};

    private final Database database;
    private final PresenceStore presence;
    private final Outbox outbox;
    private final ObjectMapper mapper;
    private final MessageConfig.OfflinePush settings;
    private final MessageConfig config;
    private final boolean outboxEnabled;
    private final Counter announced;
    private final Counter unacknowledged;
    private final Counter recalled;
    private PollingLoop loop;

    public OfflinePushPublisher(Database database, PresenceStore presence, Outbox outbox, ObjectMapper mapper,
            MessageConfig config, MeterRegistry registry,
            @ConfigProperty(name = "im.outbox.enabled", defaultValue = "false") boolean outboxEnabled) {
        this.database = database;
        this.presence = presence;
        this.outbox = outbox;
        this.mapper = mapper;
        this.settings = config.offlinePush();
        this.config = config;
        this.outboxEnabled = outboxEnabled;
        this.announced = registry.counter("imcore.offline_push.announced", "type", "created");
        this.unacknowledged = registry.counter("imcore.offline_push.announced", "type", "unacknowledged");
        this.recalled = registry.counter("imcore.offline_push.announced", "type", "recalled");
    }

    void start(@Observes StartupEvent event) {
        boolean publishing = settings.enabled() && outboxEnabled;
        database.inTransaction(c -> {
            UnreadCounts.keep(c, publishing);
            return null;
        });
        if (!publishing) {
            return;
        }
        loop = new PollingLoop("offline-push-publisher", settings.pollInterval().toMillis(), settings.batchSize(),
                () -> database.inTransaction(this::publishDue), LOG);
        loop.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (loop != null) {
            loop.stop();
        }
    }

    /** A due queue row with its message. */
    private record Due(long id, String appId, long conversationId, long msgId, int stage, String live, long seq,
            long senderId, Integer senderDeviceSn, int contentType, String preview, String config, long createdMs,
            short kind, long lowId, long highId) {}

    /** Publishes the due rows (at most one batch); returns how many rows it handled. */
    int publishDue(Connection c) throws SQLException {
        if (!AdvisoryLocks.tryXactLock(c, PUBLISHER_LOCK)) {
            return 0;
        }
        List<Due> due = due(c);
        if (due.isEmpty()) {
            return 0;
        }
        Map<Long, String> groupNames = groupNames(c, due);
        Map<Long, List<long[]>> members = groupMembers(c, due);
        List<Long> done = new ArrayList<>();
        List<Due> waiting = new ArrayList<>();
        List<String> waitingLive = new ArrayList<>();
        // the first stage and a recall need the recipients' unread counts and live devices, per app in one query each
        Map<String, List<Due>> fresh = new LinkedHashMap<>();
        for (Due row : due) {
            if (row.stage() != 1) {
                fresh.computeIfAbsent(row.appId(), a -> new ArrayList<>()).add(row);
            }
        }
        Map<String, Map<Long, Long>> unread = new HashMap<>();
        Map<String, Map<Long, List<Integer>>> live = new HashMap<>();
        UnreadCounts.applyChanges(c);
        for (Map.Entry<String, List<Due>> app : fresh.entrySet()) {
            Map<Long, Long> announced = new TreeMap<>(); // recipient to the messages of this pass announced to them
            // a recall counts nothing (the recalling transaction took the message off the counts): its badge is now's
            app.getValue().forEach(row -> recipientIds(row, members).forEach(r -> announced.merge(r[0],
                    row.stage() == 0 ? 1L : 0L, Long::sum)));
            long[] ids = announced.keySet().stream().mapToLong(Long::longValue).toArray();
            unread.put(app.getKey(), UnreadCounts.announce(c, app.getKey(), announced));
            Map<Long, List<Integer>> devices = new HashMap<>();
            for (PresenceStore.Device device : presence.online(c, app.getKey(), ids, config.presenceExpiry())) {
                devices.computeIfAbsent(device.userId(), u -> new ArrayList<>()).add(device.deviceSn());
            }
            live.put(app.getKey(), devices);
        }
        // a first stage's recipients (all of them), and each row's live ones: a first stage's with a live device, a
        // second stage's still waiting. A live recipient's ack usually beats the first pass; a row with no live
        // recipient left unacknowledged is done
        Map<Long, List<Recipient>> recipientsOf = new HashMap<>();
        Map<Long, List<Recipient>> liveOf = new HashMap<>();
        for (Due row : due) {
            if (row.stage() != 1) {
                List<Recipient> recipients = new ArrayList<>();
                for (long[] r : recipientIds(row, members)) {
                    recipients.add(new Recipient(r[0], r[1], unread.get(row.appId()).getOrDefault(r[0], 0L),
                            live.get(row.appId()).getOrDefault(r[0], List.of())));
                }
                recipientsOf.put(row.id(), recipients);
                // a recall waits for no ack: live devices got the recall frame
                liveOf.put(row.id(), row.stage() == OfflinePushQueue.RECALL_STAGE ? List.of()
                        : recipients.stream().filter(r -> !r.liveDevices().isEmpty()).toList());
            } else {
                liveOf.put(row.id(), recipients(row.live()));
            }
        }
        Map<Long, Map<Long, Long>> delivered = delivered(c, due, liveOf);
        Iterator<Long> noticeIds = noticeIds(c, due).iterator();
        List<String> keys = new ArrayList<>();
        List<MessageEvent> events = new ArrayList<>();
        for (Due row : due) {
            Map<Long, Long> deliveredSeq = delivered.getOrDefault(row.conversationId(), Map.of());
            List<Recipient> unacknowledgedLive = liveOf.get(row.id()).stream()
                    .filter(r -> deliveredSeq.getOrDefault(r.userId(), 0L) < row.seq()).toList();
            if (row.stage() == OfflinePushQueue.RECALL_STAGE) {
                List<Recipient> recipients = recipientsOf.get(row.id());
                if (!recipients.isEmpty()) {
                    keys.add(key(row));
                    events.add(event(row, MessageEvent.RECALLED, recipients, groupNames, noticeIds.next()));
                    recalled.increment();
                }
                done.add(row.id());
            } else if (row.stage() == 0) {
                List<Recipient> recipients = recipientsOf.get(row.id());
                if (!recipients.isEmpty()) {
                    keys.add(key(row));
                    events.add(event(row, MessageEvent.CREATED, recipients, groupNames, null));
                    announced.increment();
                }
                if (unacknowledgedLive.isEmpty()) {
                    done.add(row.id());
                } else {
                    waiting.add(row);
                    waitingLive.add(json(unacknowledgedLive));
                }
            } else {
                if (!unacknowledgedLive.isEmpty()) {
                    keys.add(key(row));
                    events.add(event(row, MessageEvent.UNACKNOWLEDGED, unacknowledgedLive, groupNames, null));
                    unacknowledged.increment();
                }
                done.add(row.id());
            }
        }
        outbox.appendAll(c, MessageEvent.TOPIC, keys, events);
        delete(c, done);
        awaitAcks(c, waiting, waitingLive);
        return due.size();
    }

    private List<Due> due(Connection c) throws SQLException {
        List<Due> due = new ArrayList<>();
        List<Long> orphans = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("select q.id, q.app_id, q.conversation_id, q.msg_id, q.stage,"
                + " q.live, m.seq, m.sender_id, m.sender_device_sn, m.content_type, left(m.content, ?), m.config,"
                + " m.created_ms, v.kind, v.low_id, v.high_id from offline_push_queue q"
                + " left join messages m on m.conversation_id = q.conversation_id and m.msg_id = q.msg_id"
                + " left join conversations v on v.id = q.conversation_id"
                + " where q.due_at <= now() order by q.due_at, q.msg_id limit ?")) {
            ps.setInt(1, MessageEvent.PREVIEW_CHARS);
            ps.setInt(2, settings.batchSize());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (rs.getObject(7) == null) {
                        orphans.add(rs.getLong(1)); // the message is gone: nothing to announce
                        continue;
                    }
                    int device = rs.getInt(9);
                    due.add(new Due(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getInt(5),
                            rs.getString(6), rs.getLong(7), rs.getLong(8), rs.wasNull() ? null : device, rs.getInt(10),
                            rs.getString(11), rs.getString(12), rs.getLong(13), rs.getShort(14), rs.getLong(15),
                            rs.getLong(16)));
                }
            }
        }
        delete(c, orphans);
        return due;
    }

    /**
     * The recipients of a message as {user_id, the conversation's address for that user}: the peer of a direct
     * message, the user of a system notification, every member of a group but the sender who was a member when it
     * came. Never the sender.
     */
    private static List<long[]> recipientIds(Due row, Map<Long, List<long[]>> members) {
        List<long[]> ids = new ArrayList<>();
        if (row.kind() == ConversationKind.DIRECT.code) {
            long peer = row.lowId() == row.senderId() ? row.highId() : row.lowId();
            if (peer != row.senderId()) {
                ids.add(new long[] {peer, row.senderId()});
            }
        } else if (row.kind() == ConversationKind.SYSTEM.code) {
            ids.add(new long[] {row.lowId(), 0});
        } else {
            for (long[] member : members.getOrDefault(row.conversationId(), List.of())) {
                // member: {user_id, floor_seq}; a later member did not receive this message
                if (member[0] != row.senderId() && member[1] < row.seq()) {
                    ids.add(new long[] {member[0], row.lowId()});
                }
            }
        }
        return ids;
    }

    /** Group conversation id to its members, {user_id, floor_seq}; for the first stage and recalls of groups. */
    private static Map<Long, List<long[]>> groupMembers(Connection c, List<Due> due) throws SQLException {
        long[] conversations = due.stream().filter(d -> d.stage() != 1 && d.kind() == ConversationKind.GROUP.code)
                .mapToLong(Due::conversationId).distinct().toArray();
        Map<Long, List<long[]>> members = new HashMap<>();
        if (conversations.length == 0) {
            return members;
        }
        try (PreparedStatement ps = c.prepareStatement("select conversation_id, user_id, floor_seq"
                + " from conversation_members where conversation_id = any(?)")) {
            ps.setArray(1, Database.bigints(c, conversations));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    members.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                            .add(new long[] {rs.getLong(2), rs.getLong(3)});
                }
            }
        }
        return members;
    }

    private static Map<Long, String> groupNames(Connection c, List<Due> due) throws SQLException {
        long[] conversations = due.stream().filter(d -> d.kind() == ConversationKind.GROUP.code)
                .mapToLong(Due::conversationId).distinct().toArray();
        Map<Long, String> names = new HashMap<>();
        if (conversations.length == 0) {
            return names;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "select conversation_id, name from groups where conversation_id = any(?)")) {
            ps.setArray(1, Database.bigints(c, conversations));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.put(rs.getLong(1), rs.getString(2));
                }
            }
        }
        return names;
    }

    /** Conversation id to the delivered positions of the rows' live recipients ({@code liveOf}: row id to them). */
    private static Map<Long, Map<Long, Long>> delivered(Connection c, List<Due> due,
            Map<Long, List<Recipient>> liveOf) throws SQLException {
        Set<List<Long>> pairs = new LinkedHashSet<>(); // {conversation_id, user_id}, once each
        for (Due row : due) {
            for (Recipient r : liveOf.get(row.id())) {
                pairs.add(List.of(row.conversationId(), r.userId()));
            }
        }
        Map<Long, Map<Long, Long>> positions = new HashMap<>();
        if (pairs.isEmpty()) {
            return positions;
        }
        try (PreparedStatement ps = c.prepareStatement("select m.conversation_id, m.user_id, m.delivered_seq"
                + " from conversation_members m join unnest(?::bigint[], ?::bigint[]) as t(conversation_id, user_id)"
                + " on m.conversation_id = t.conversation_id and m.user_id = t.user_id")) {
            ps.setArray(1, Database.bigints(c, pairs.stream().mapToLong(p -> p.get(0)).toArray()));
            ps.setArray(2, Database.bigints(c, pairs.stream().mapToLong(p -> p.get(1)).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    positions.computeIfAbsent(rs.getLong(1), k -> new HashMap<>()).put(rs.getLong(2), rs.getLong(3));
                }
            }
        }
        return positions;
    }

    /**
     * An id per recall row of the pass with recipients, for the notification that replaces the message's: one of the
     * message ids, so push-service traces and sends it as a message of its own that no message id can collide with.
     * Drawn in the pass's transaction, it travels in the outbox's record: a record published again carries it again.
     */
    private static List<Long> noticeIds(Connection c, List<Due> due) throws SQLException {
        long recalls = due.stream().filter(row -> row.stage() == OfflinePushQueue.RECALL_STAGE).count();
        List<Long> ids = new ArrayList<>();
        if (recalls == 0) {
            return ids;
        }
        try (PreparedStatement ps = c.prepareStatement("select nextval('msg_ids') from generate_series(1, ?)")) {
            ps.setLong(1, recalls);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    private MessageEvent event(Due row, String type, List<Recipient> recipients, Map<Long, String> groupNames,
            Long noticeId) {
        String kind = row.kind() == ConversationKind.GROUP.code ? MessageEvent.GROUP
                : row.kind() == ConversationKind.SYSTEM.code ? MessageEvent.SYSTEM : MessageEvent.DIRECT;
        MessageConfigOptions options = MessageConfigOptions.parse(mapper, row.config());
        boolean group = row.kind() == ConversationKind.GROUP.code;
        return new MessageEvent(MessageEvent.VERSION, type, row.appId(), row.msgId(), kind, row.senderId(),
                row.senderDeviceSn(), group ? row.lowId() : null, group ? groupNames.get(row.conversationId()) : null,
                row.contentType(), row.contentType() == 0 && noticeId == null ? row.preview() : null, options.push(),
                options.mentions(), options.mentionAll(), recipients, row.createdMs(), System.currentTimeMillis(),
                noticeId);
    }

    /** The event's key: one conversation's events keep their order on one partition. */
    private static String key(Due row) {
        return row.appId() + ":" + row.conversationId();
    }

    private static void delete(Connection c, List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("delete from offline_push_queue where id = any(?)")) {
            ps.setArray(1, Database.bigints(c, ids.stream().mapToLong(Long::longValue).toArray()));
            ps.executeUpdate();
        }
    }

    /** Rows whose recipients had live devices come due again after the ack window, with those recipients. */
    private void awaitAcks(Connection c, List<Due> rows, List<String> live) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("update offline_push_queue set stage = 1,"
                + " due_at = now() + make_interval(secs => ?), live = t.live"
                + " from unnest(?::bigint[], ?::text[]) as t(id, live) where offline_push_queue.id = t.id")) {
            ps.setDouble(1, settings.ackTimeout().toMillis() / 1000.0);
            ps.setArray(2, Database.bigints(c, rows.stream().mapToLong(Due::id).toArray()));
            ps.setArray(3, c.createArrayOf("text", live.toArray()));
            ps.executeUpdate();
        }
    }

    private String json(List<Recipient> recipients) {
        try {
            return mapper.writeValueAsString(recipients);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Recipient> recipients(String json) {
        if (json == null) {
            return List.of();
        }
        try {
            return mapper.readValue(json, RECIPIENTS);
        } catch (JsonProcessingException e) {
            LOG.warnf("offline push queue: unreadable live recipients %s", json);
            return List.of();
        }
    }
}
