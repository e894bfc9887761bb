package io.imcore.message.live;

import io.imcore.message.config.MessageConfig;
import io.imcore.message.store.ConversationKind;
import io.imcore.message.store.ConversationStore.Appended;
import io.imcore.message.store.PresenceStore;
import io.imcore.message.store.PresenceStore.Device;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells the replicas that hold a recipient's live connection about new messages: one PostgreSQL NOTIFY per
 * replica, sent inside the send's transaction, so it is delivered only if the message is committed. The payload
 * names messages and users, never content (NOTIFY payloads stay under 8000 bytes); the replica loads the rows.
 */
@ApplicationScoped
public class LiveRouter {

    /** Keeps a NOTIFY payload well under PostgreSQL's 8000-byte limit. */
    private static final int MAX_PAYLOAD_CHARS = 7000;

    private final PresenceStore presence;
    private final MessageConfig config;

    public LiveRouter(PresenceStore presence, MessageConfig config) {
        this.presence = presence;
        this.config = config;
    }

    public static String channel(String replicaId) {
        return "live_" + replicaId;
    }

    /** For each new message, its recipients' online devices; the sender's other devices get their own messages. */
    public void route(Connection c, String appId, ConversationKind kind, List<Appended> messages)
            throws SQLException {
        Map<String, Map<Appended, Set<Long>>> routes = new LinkedHashMap<>();
        if (kind == ConversationKind.GROUP) {
            for (Appended message : messages) {
                for (Device device : presence.onlineMembers(c, message.conversationId(), config.presenceExpiry())) {
                    add(routes, device, message);
                }
            }
        } else {
            Set<Long> users = new LinkedHashSet<>();
            for (Appended message : messages) {
                users.add(message.lowId());
                users.add(message.highId());
            }
            List<Device> online = presence.online(c, appId, users.stream().mapToLong(Long::longValue).toArray(),
                    config.presenceExpiry());
            if (online.isEmpty()) {
                return;
            }
            Map<Long, List<Device>> byUser = new HashMap<>();
            for (Device device : online) {
                byUser.computeIfAbsent(device.userId(), u -> new ArrayList<>()).add(device);
            }
            for (Appended message : messages) {
                // direct: both users (the sender's other devices too); system: the user (high_id is 0)
                Set<Long> recipients = new LinkedHashSet<>(List.of(message.lowId(), message.highId()));
                for (long user : recipients) {
                    for (Device device : byUser.getOrDefault(user, List.of())) {
                        add(routes, device, message);
                    }
                }
            }
        }
        notifyReplicas(c, appId, routes);
    }

    private static void add(Map<String, Map<Appended, Set<Long>>> routes, Device device, Appended message) {
        routes.computeIfAbsent(device.replicaId(), r -> new LinkedHashMap<>())
                .computeIfAbsent(message, m -> new LinkedHashSet<>()).add(device.userId());
    }

    /**
     * One NOTIFY per replica, more when the payload would grow too large:
     * {@code {"a":app,"d":[[conversation_id,msg_id,[user_id,...]],...]}}.
     */
    private static void notifyReplicas(Connection c, String appId, Map<String, Map<Appended, Set<Long>>> routes)
            throws SQLException {
        String prefix = "{\"a\":" + quote(appId) + ",\"d\":[";
        try (PreparedStatement ps = c.prepareStatement("select pg_notify(?, ?)")) {
            for (Map.Entry<String, Map<Appended, Set<Long>>> replica : routes.entrySet()) {
                StringBuilder payload = new StringBuilder(prefix);
                boolean empty = true;
                for (Map.Entry<Appended, Set<Long>> message : replica.getValue().entrySet()) {
                    String head = "[" + message.getKey().conversationId() + "," + message.getKey().msgId() + ",[";
                    StringBuilder users = new StringBuilder();
                    for (long user : message.getValue()) {
                        String id = String.valueOf(user);
                        if (payload.length() + head.length() + users.length() + id.length() + 8 > MAX_PAYLOAD_CHARS) {
                            if (!users.isEmpty()) {
                                payload.append(empty ? "" : ",").append(head).append(users).append("]]");
                                empty = false;
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

    private static void send(PreparedStatement ps, String replicaId, String payload) throws SQLException {
        ps.setString(1, channel(replicaId));
        ps.setString(2, payload);
        ps.executeQuery().close();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
