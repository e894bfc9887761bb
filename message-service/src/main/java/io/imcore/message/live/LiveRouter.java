package io.imcore.message.live;

import io.imcore.message.conversation.PlacedMessage;
import io.imcore.message.conversation.PlacedMessage.Online;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells the replicas that hold a recipient's live connection about new messages: one PostgreSQL NOTIFY per replica
 * (more for very large fan-outs). Sent in the send's transaction, or right after its auto-committed statement, so
 * only committed messages are announced. The payload names messages and users, never content (NOTIFY payloads stay
 * under 8000 bytes); the replica loads the rows ({@link LiveListener}). svcpush notifications travel the same way
 * ({@link LivePush}).
 */
@ApplicationScoped
public class LiveRouter {

    /** Keeps a NOTIFY payload well under PostgreSQL's 8000-byte limit. */
    private static final int MAX_PAYLOAD_CHARS = 7000;

    public static String channel(String replicaId) {
        return "live_" + replicaId;
    }

    /** Announces each placed message to the replicas holding its recipients' connections. */
    public void announce(Connection c, String appId, List<PlacedMessage> placed) throws SQLException {
        Map<String, Map<PlacedMessage, Set<Long>>> routes = new LinkedHashMap<>();
        for (PlacedMessage message : placed) {
            for (Online device : message.online()) {
                routes.computeIfAbsent(device.replicaId(), r -> new LinkedHashMap<>())
                        .computeIfAbsent(message, m -> new LinkedHashSet<>()).add(device.userId());
            }
        }
        if (routes.isEmpty()) {
            return;
        }
        String prefix = "{\"a\":" + quote(appId) + ",\"d\":[";
        try (PreparedStatement ps = c.prepareStatement("select pg_notify(?, ?)")) {
            for (Map.Entry<String, Map<PlacedMessage, Set<Long>>> replica : routes.entrySet()) {
                // {"a":app,"d":[[conversation_id,msg_id,[user_id,...]],...]}
                StringBuilder payload = new StringBuilder(prefix);
                boolean empty = true;
                for (Map.Entry<PlacedMessage, Set<Long>> message : replica.getValue().entrySet()) {
                    String head = "[" + message.getKey().conversationId() + "," + message.getKey().msgId() + ",[";
                    StringBuilder users = new StringBuilder();
                    for (long user : message.getValue()) {
                        String id = String.valueOf(user);
                        if (payload.length() + head.length() + users.length() + id.length() + 8 > MAX_PAYLOAD_CHARS) {
                            if (!users.isEmpty()) {
                                payload.append(empty ? "" : ",").append(head).append(users).append("]]");
                                users.setLength(0);
                            }
                            send(ps, replica.getKey(), payload.append("]}").toString());
                            payload = new StringBuilder(prefix);
                            empty = true;
                        }
                        users.append(users.isEmpty() ? "" : ",").append(id);
                    }
                    payload.append(empty ? "" : ",").append(head).append(users).append("]]");
                    empty = false;
                }
                send(ps, replica.getKey(), payload.append("]}").toString());
            }
        }
    }

    /** One NOTIFY of a stored svcpush notification: its channel and its payload after the row id. */
    record NotificationPayload(String channel, String tail) {}

    /**
     * The NOTIFY payloads telling each replica which of its devices get a stored notification:
     * {@code {"n":<row id>,"t":[[user_id,device_sn,badge or null],...]}}, one per replica unless too long. The row
     * id (at most 20 characters) is added by the statement that stores the row; the tails leave room for it.
     */
    static List<NotificationPayload> notificationPayloads(Map<String, List<LivePush.Target>> byReplica) {
        List<NotificationPayload> payloads = new ArrayList<>();
        for (Map.Entry<String, List<LivePush.Target>> replica : byReplica.entrySet()) {
            StringBuilder tail = new StringBuilder("\"t\":[");
            boolean empty = true;
            for (LivePush.Target target : replica.getValue()) {
                String entry = "[" + target.userId() + "," + target.deviceSn() + "," + target.badge() + "]";
                if (!empty && tail.length() + entry.length() + 32 > MAX_PAYLOAD_CHARS) {
                    payloads.add(new NotificationPayload(channel(replica.getKey()), tail.append("]").toString()));
                    tail = new StringBuilder("\"t\":[");
                    empty = true;
                }
                tail.append(empty ? "" : ",").append(entry);
                empty = false;
            }
            payloads.add(new NotificationPayload(channel(replica.getKey()), tail.append("]").toString()));
        }
        return payloads;
    }

    private static void send(PreparedStatement ps, String replicaId, String payload) throws SQLException {
        ps.setString(1, channel(replicaId));
        ps.setString(2, payload);
        ps.executeQuery().close();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
