package io.imcore.message.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationService;
import io.imcore.message.conversation.MessageRow;
import io.imcore.message.conversation.MessageStore;
import io.imcore.message.presence.PresenceService;
import io.imcore.message.sync.SyncCursor;
import io.imcore.message.sync.SyncService;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Receives this replica's NOTIFY channel (see {@link LiveRouter}), loads the named messages and other changes and
 * writes them to the users' connections here, each frame with its position in the user's log; svcpush
 * notifications go to {@link LivePush}, frames that are not stored (typing, read receipts) to {@link LiveFrames}. A client that was away syncs from its last cursor (docs/live-protocol.md).
 */
@ApplicationScoped
public class LiveListener {

    private static final Logger LOG = Logger.getLogger(LiveListener.class);

    private final AgroalDataSource dataSource;
    private final MessageStore messages;
    private final LiveConnections connections;
    private final LivePush pushes;
    private final LiveFrames frames;
    private final SyncService sync;
    private final ObjectMapper mapper;
    private final String channel;
    private volatile boolean running;
    private Thread worker;

    public LiveListener(AgroalDataSource dataSource, MessageStore messages,
            LiveConnections connections, LivePush pushes, LiveFrames frames, SyncService sync, ObjectMapper mapper,
            PresenceService presence) {
        this.sync = sync;
        this.frames = frames;
        this.dataSource = dataSource;
        this.messages = messages;
        this.connections = connections;
        this.pushes = pushes;
        this.mapper = mapper;
        this.channel = LiveRouter.channel(presence.replicaId());
    }

    void start(@Observes StartupEvent event) {
        running = true;
        worker = new Thread(this::loop, "live-listener");
        worker.setDaemon(true);
        worker.start();
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        running = false;
        if (worker != null) {
            worker.join(3_000);
        }
    }

    private void loop() {
        long backoff = 100;
        while (running) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement listen = connection.createStatement()) {
                    listen.execute("LISTEN \"" + channel + "\"");
                }
                PGConnection pg = connection.unwrap(PGConnection.class);
                backoff = 100;
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(500);
                    if (notifications != null && notifications.length > 0) {
                        deliver(connection, notifications);
                    }
                }
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                LOG.warnf("live listener lost its connection, retrying in %d ms: %s", backoff, e.getMessage());
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    /** A new message for some users: their positions, in the same order. */
    private record Route(String appId, long conversationId, long msgId, long[] users, long[] positions) {}

    /** Other changes of one user, read from the user's log. */
    private record Changes(String appId, long userId, List<Long> positions) {}

    /**
     * Loads the notified messages on the listening connection itself, not one of the pool: under load the pool is
     * busy with sends and acks, and a wait for it delayed every frame of this replica by up to seconds.
     */
    private void deliver(Connection listening, PGNotification[] notifications) throws SQLException {
        List<Route> routes = new ArrayList<>();
        Map<String, Changes> changes = new LinkedHashMap<>();
        Map<Long, List<LivePush.Target>> pushed = new LinkedHashMap<>();
        for (PGNotification notification : notifications) {
            try {
                JsonNode payload = mapper.readTree(notification.getParameter());
                if (payload.has("n")) {
                    // a svcpush notification: {"n":<row id>,"t":[[user_id,device_sn,badge],...]}
                    List<LivePush.Target> targets = pushed.computeIfAbsent(payload.get("n").asLong(),
                            id -> new ArrayList<>());
                    for (JsonNode entry : payload.get("t")) {
                        JsonNode badge = entry.get(2);
                        targets.add(new LivePush.Target(entry.get(0).asLong(), entry.get(1).asInt(),
                                badge.isNull() ? null : badge.asInt()));
                    }
                    continue;
                }
                String appId = payload.get("a").asText();
                if (payload.has("f")) {
                    // a frame that is not stored (LiveFrames): {"a":app,"f":"<frame>","u":[user_id,...]}
                    frames.deliverAnnounced(appId, payload.get("f").asText(), longs(payload.get("u")));
                    continue;
                }
                for (JsonNode entry : payload.path("d")) {
                    routes.add(new Route(appId, entry.get(0).asLong(), entry.get(1).asLong(), longs(entry.get(2)),
                            longs(entry.get(3))));
                }
                for (JsonNode entry : payload.path("e")) {
                    long user = entry.get(0).asLong();
                    changes.computeIfAbsent(appId + ':' + user, k -> new Changes(appId, user, new ArrayList<>()))
                            .positions().add(entry.get(1).asLong());
                }
            } catch (Exception e) {
                LOG.errorf("skipping unreadable live notification: %s", e.getMessage());
            }
        }
        if (!pushed.isEmpty()) {
            pushes.deliverAnnounced(pushed);
        }
        for (Changes user : changes.values()) {
            long[] positions = user.positions().stream().mapToLong(Long::longValue).toArray();
            for (SyncService.Positioned change : sync.events(user.appId(), user.userId(), positions)) {
                connections.send(user.appId(), user.userId(), null, change.position(), change.frame());
            }
        }
        if (routes.isEmpty()) {
            return;
        }
        long[] conversationIds = routes.stream().mapToLong(Route::conversationId).toArray();
        long[] msgIds = routes.stream().mapToLong(Route::msgId).toArray();
        Map<Long, MessageRow> byMsgId = new HashMap<>();
        for (MessageRow row : messages.find(listening, conversationIds, msgIds)) {
            byMsgId.put(row.msgId(), row);
        }
        for (Route route : routes) {
            MessageRow row = byMsgId.get(route.msgId());
            if (row == null) {
                continue;
            }
            for (int i = 0; i < route.users().length; i++) {
                long user = route.users()[i];
                long position = route.positions()[i];
                // the sending device has its message already; the sender's other devices get it
                Integer skip = user == row.senderId() ? row.senderDeviceSn() : null;
                connections.send(route.appId(), user, skip, position, frame(row, user,
                        new SyncCursor(position).encode(route.appId(), user)));
            }
        }
    }

    private static long[] longs(JsonNode array) {
        long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asLong();
        }
        return values;
    }

    /** {"type":"message","cursor":..,"conversation_id":<address as the recipient sees it>,"message":{...}} */
    private String frame(MessageRow row, long recipient, String cursor) {
        long address;
        if (ConversationKind.isGroupId(row.targetId())) {
            address = row.targetId();
        } else if (row.senderId() == ConversationKind.SYSTEM_SENDER) {
            address = 0;
        } else {
            address = recipient == row.senderId() ? row.targetId() : row.senderId();
        }
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", "message");
        frame.put("cursor", cursor);
        frame.put("conversation_id", address);
        frame.put("message", ConversationService.view(row, "UNREAD"));
        try {
            return mapper.writeValueAsString(frame);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
