package io.imcore.message.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.presence.PresenceService;
import io.imcore.message.presence.PresenceStore;
import io.imcore.message.presence.PresenceStore.Device;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Frames that are not stored (typing, read, group: docs/live-protocol.md) to every connected device of some users:
 * written here to the connections of this replica, and carried whole in a NOTIFY to the replicas holding the others
 * ({@code {"a":app,"f":"<frame>","u":[user_id,...]}}, {@link LiveListener}). Two statements at most: the presence
 * look-up and the NOTIFYs. A frame is a fast path, like a message frame: a device that was away reads the state over
 * HTTP. Blocking: call it off the event loop.
 */
@ApplicationScoped
public class LiveFrames {

    /** A frame travels inside a NOTIFY payload (under 8000 bytes) with its users: callers keep frames short. */
    public static final int MAX_FRAME_CHARS = 3000;
    private static final int MAX_PAYLOAD_CHARS = 7000;

    private final Database database;
    private final PresenceStore presence;
    private final LiveConnections connections;
    private final ObjectMapper mapper;
    private final MessageConfig config;
    private final String replicaId;

    public LiveFrames(Database database, PresenceStore presence, LiveConnections connections, ObjectMapper mapper,
            MessageConfig config, PresenceService presenceService) {
        this.database = database;
        this.presence = presence;
        this.connections = connections;
        this.mapper = mapper;
        this.config = config;
        this.replicaId = presenceService.replicaId();
    }

    /** Sends the frame (any JSON value, written as is) to every connected device of the users. */
    public void send(String appId, Set<Long> userIds, Object frame) {
        if (userIds.isEmpty()) {
            return;
        }
        String text = json(frame);
        if (text.length() > MAX_FRAME_CHARS) {
            throw new IllegalArgumentException("live frame of " + text.length() + " characters");
        }
        long[] ids = userIds.stream().mapToLong(Long::longValue).toArray();
        Map<String, Set<Long>> usersByReplica = new LinkedHashMap<>();
        for (Device device : database.read(c -> presence.online(c, appId, ids, config.presenceExpiry()))) {
            usersByReplica.computeIfAbsent(device.replicaId(), r -> new LinkedHashSet<>()).add(device.userId());
        }
        Set<Long> here = usersByReplica.remove(replicaId);
        if (here != null) {
            here.forEach(user -> connections.sendUnlogged(appId, user, text));
        }
        if (!usersByReplica.isEmpty()) {
            announce(appId, text, usersByReplica);
        }
    }

    private void announce(String appId, String frame, Map<String, Set<Long>> usersByReplica) {
        List<String> channels = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        String prefix = "{\"a\":" + json(appId) + ",\"f\":" + json(frame) + ",\"u\":[";
        for (Map.Entry<String, Set<Long>> replica : usersByReplica.entrySet()) {
            StringBuilder payload = new StringBuilder(prefix);
            boolean empty = true;
            for (long user : replica.getValue()) {
                if (!empty && payload.length() + 24 > MAX_PAYLOAD_CHARS) {
                    channels.add(LiveRouter.channel(replica.getKey()));
                    payloads.add(payload.append("]}").toString());
                    payload = new StringBuilder(prefix);
                    empty = true;
                }
                payload.append(empty ? "" : ",").append(user);
                empty = false;
            }
            channels.add(LiveRouter.channel(replica.getKey()));
            payloads.add(payload.append("]}").toString());
        }
        database.autoCommit(c -> {
            try (PreparedStatement ps = c.prepareStatement("select pg_notify(t.channel, t.payload)"
                    + " from unnest(?::text[], ?::text[]) as t(channel, payload)")) {
                ps.setArray(1, c.createArrayOf("text", channels.toArray()));
                ps.setArray(2, c.createArrayOf("text", payloads.toArray()));
                ps.executeQuery().close();
            }
            return null;
        });
    }

    /** A frame another replica announced to this one ({@link LiveListener}). */
    void deliverAnnounced(String appId, String frame, long[] userIds) {
        for (long user : userIds) {
            connections.sendUnlogged(appId, user, frame);
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
