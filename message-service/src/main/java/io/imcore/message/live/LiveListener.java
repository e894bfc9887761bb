package io.imcore.message.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.imcore.message.conversation.ConversationKind;
import io.imcore.message.conversation.ConversationService;
import io.imcore.message.conversation.MessageRow;
import io.imcore.message.conversation.MessageStore;
import io.imcore.message.presence.PresenceService;
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
 * Receives this replica's NOTIFY channel (see {@link LiveRouter}), loads the named messages and writes them to
 * the recipients' connections here; svcpush notifications go to {@link LivePush}, frames that are not stored to
 * {@link LiveFrames}. Live frames are a fast path: a client that was away reads the conversation over HTTP, which is
 * always complete.
 */
@ApplicationScoped
public class LiveListener {

    private static final Logger LOG = Logger.getLogger(LiveListener.class);

    private final AgroalDataSource dataSource;
    private final MessageStore messages;
    private final LiveConnections connections;
    private final LivePush pushes;
    private final LiveFrames frames;
    private final ObjectMapper mapper;
    private final String channel;
    private volatile boolean running;
    private Thread worker;

    public LiveListener(AgroalDataSource dataSource, MessageStore messages,
            LiveConnections connections, LivePush pushes, LiveFrames frames, ObjectMapper mapper,
            PresenceService presence) {
        this.dataSource = dataSource;
        this.messages = messages;
        this.connections = connections;
        this.pushes = pushes;
        this.frames = frames;
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

    private record Route(String appId, long conversationId, long msgId, long[] users, LiveFrame frame) {}

    /**
     * Loads the notified messages on the listening connection itself, not one of the pool: under load the pool is
     * busy with sends and acks, and a wait for it delayed every frame of this replica by up to seconds.
     */
    private void deliver(Connection listening, PGNotification[] notifications) throws SQLException {
        List<Route> routes = new ArrayList<>();
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
                    JsonNode users = payload.get("u");
                    long[] ids = new long[users.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = users.get(i).asLong();
                    }
                    frames.deliverAnnounced(appId, payload.get("f").asText(), ids);
                    continue;
                }
                for (JsonNode entry : payload.get("d")) {
                    JsonNode users = entry.get(2);
                    long[] ids = new long[users.size()];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = users.get(i).asLong();
                    }
                    LiveFrame frame = entry.has(3) ? LiveFrame.ofType(entry.get(3).asText()) : LiveFrame.MESSAGE;
                    routes.add(new Route(appId, entry.get(0).asLong(), entry.get(1).asLong(), ids, frame));
                }
            } catch (Exception e) {
                LOG.errorf("skipping unreadable live notification: %s", e.getMessage());
            }
        }
        if (!pushed.isEmpty()) {
            pushes.deliverAnnounced(pushed);
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
            if (row == null || route.frame() == LiveFrame.EDIT && row.recalledMs() != null) {
                continue; // gone, or an edit overtaken by a recall
            }
            for (long user : route.users()) {
                // the sending device has its message already; the sender's other devices get it. A recall or an
                // edit goes to every device, the one that made it included
                Integer skip = route.frame() == LiveFrame.MESSAGE && user == row.senderId() ? row.senderDeviceSn()
                        : null;
                connections.send(route.appId(), user, skip, frame(route.frame(), row, user));
            }
        }
    }

    /**
     * {"type":"message","conversation_id":<address as the recipient sees it>,"message":{...}};
     * {"type":"recall","conversation_id":..,"msg_id":..}; {"type":"edit","conversation_id":..,"msg_id":..,
     * "content":..,"ext":..,"edited_at":..} with the message as stored now.
     */
    private String frame(LiveFrame type, MessageRow row, long recipient) {
        Map<String, Object> frame = new LinkedHashMap<>();
        frame.put("type", type.type);
        frame.put("conversation_id", address(row, recipient));
        switch (type) {
            case MESSAGE -> frame.put("message", ConversationService.view(row, "UNREAD"));
            case RECALL -> frame.put("msg_id", row.msgId());
            case EDIT -> {
                frame.put("msg_id", row.msgId());
                frame.put("content", row.content());
                frame.put("ext", row.ext());
                frame.put("edited_at", row.editedMs());
            }
        }
        try {
            return mapper.writeValueAsString(frame);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The conversation's address as the recipient sees it: the group, 0 for the system, else the other user. */
    private static long address(MessageRow row, long recipient) {
        if (ConversationKind.isGroupId(row.targetId())) {
            return row.targetId();
        }
        if (row.senderId() == ConversationKind.SYSTEM_SENDER) {
            return 0;
        }
        return recipient == row.senderId() ? row.targetId() : row.senderId();
    }
}
