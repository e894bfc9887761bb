package io.imcore.message.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.imcore.common.events.Outbox;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.live.LiveNotificationStore.Stored;
import io.imcore.message.live.LiveRouter.NotificationPayload;
import io.imcore.message.presence.PresenceService;
import io.imcore.message.presence.PresenceStore;
import io.imcore.message.presence.PresenceStore.Device;
import io.imcore.pushcontract.PushReceipt;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * svcpush: push notifications on the devices' live connections (docs/live-protocol.md). push-worker hands a task's
 * notification and up to 500 devices over ({@code POST /internal/live/notify}); each device with a live connection
 * gets a {@code notification} frame from the replica holding it, and its {@code notification_ack} becomes a
 * receipt on {@value PushReceipt#TOPIC}.
 */
@ApplicationScoped
public class LivePush {

    private static final Logger LOG = Logger.getLogger(LivePush.class);

    /** One device to notify; badge null leaves the notification's own fields as they are. */
    public record Target(long userId, int deviceSn, Integer badge) {}

    private final Database database;
    private final PresenceStore presence;
    private final LiveNotificationStore notifications;
    private final LiveConnections connections;
    private final Outbox outbox;
    private final ObjectMapper mapper;
    private final MessageConfig config;
    private final String replicaId;

    public LivePush(Database database, PresenceStore presence, LiveNotificationStore notifications,
            LiveConnections connections, Outbox outbox, ObjectMapper mapper, MessageConfig config,
            PresenceService presenceService) {
        this.database = database;
        this.presence = presence;
        this.notifications = notifications;
        this.connections = connections;
        this.outbox = outbox;
        this.mapper = mapper;
        this.config = config;
        this.replicaId = presenceService.replicaId();
    }

    /**
     * Hands the notification to the devices' connections: written here for those on this replica, announced (with
     * the content stored) to the replicas holding the others. Two statements whatever the number of devices: the
     * presence look-up, then the insert with every NOTIFY. The announcement goes first, so a failed call has
     * written nothing and push-worker's retry does not repeat a frame.
     */
    public LiveNotifyResult notify(String appId, long taskId, ObjectNode notification, List<Target> targets) {
        int n = targets.size();
        long[] userIds = new long[n];
        int[] deviceSns = new int[n];
        for (int i = 0; i < n; i++) {
            userIds[i] = targets.get(i).userId();
            deviceSns[i] = targets.get(i).deviceSn();
        }
        Map<String, String> replicaByDevice = new HashMap<>();
        for (Device device : database.read(c -> presence.locate(c, appId, userIds, deviceSns,
                config.presenceExpiry()))) {
            replicaByDevice.put(address(device.userId(), device.deviceSn()), device.replicaId());
        }
        // a device listed twice is notified once; every one of its indexes gets the same answer
        Set<String> seen = new HashSet<>();
        Map<String, List<Target>> remote = new LinkedHashMap<>();
        List<Target> local = new ArrayList<>();
        for (Target target : targets) {
            String address = address(target.userId(), target.deviceSn());
            String replica = replicaByDevice.get(address);
            if (replica != null && seen.add(address)) {
                (replica.equals(replicaId) ? local : remote.computeIfAbsent(replica, r -> new ArrayList<>()))
                        .add(target);
            }
        }
        if (!remote.isEmpty()) {
            String content = json(notification);
            List<NotificationPayload> payloads = LiveRouter.notificationPayloads(remote);
            database.autoCommit(c -> {
                notifications.storeAndAnnounce(c, appId, taskId, content,
                        payloads.stream().map(NotificationPayload::channel).toArray(String[]::new),
                        payloads.stream().map(NotificationPayload::tail).toArray(String[]::new));
                return null;
            });
        }
        Frames frames = new Frames(taskId, notification);
        Set<String> writtenHere = new HashSet<>();
        for (Target target : local) {
            if (connections.notify(appId, target.userId(), target.deviceSn(), taskId, frames.forBadge(target.badge()))) {
                writtenHere.add(address(target.userId(), target.deviceSn()));
            }
        }
        List<Integer> delivered = new ArrayList<>();
        List<Integer> offline = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String address = address(userIds[i], deviceSns[i]);
            String replica = replicaByDevice.get(address);
            boolean handed = replica != null && (!replica.equals(replicaId) || writtenHere.contains(address));
            (handed ? delivered : offline).add(i);
        }
        return new LiveNotifyResult(delivered, offline);
    }

    /** Writes notifications another replica announced to this one (from {@link LiveListener}): row id → devices. */
    void deliverAnnounced(Map<Long, List<Target>> announced) {
        long[] ids = announced.keySet().stream().mapToLong(Long::longValue).toArray();
        for (Stored row : database.read(c -> notifications.find(c, ids))) {
            Frames frames;
            try {
                frames = new Frames(row.taskId(), (ObjectNode) mapper.readTree(row.notification()));
            } catch (JsonProcessingException | ClassCastException e) {
                LOG.errorf("skipping unreadable stored notification %d: %s", row.id(), e.getMessage());
                continue;
            }
            for (Target target : announced.get(row.id())) {
                connections.notify(row.appId(), target.userId(), target.deviceSn(), row.taskId(),
                        frames.forBadge(target.badge()));
            }
        }
    }

    /** The device acknowledged the task's notification: one receipt through the outbox. */
    void publishReceipt(LiveSession session, long taskId) {
        PushReceipt receipt = PushReceipt.svcpush(taskId, session.appId, session.userId, session.deviceSn);
        database.autoCommit(c -> {
            outbox.append(c, PushReceipt.TOPIC, receipt.key(), receipt);
            return null;
        });
    }

    /** Another replica reads a stored notification within milliseconds of its NOTIFY; later the row is garbage. */
    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void purgeStoredNotifications() {
        database.autoCommit(c -> notifications.purge(c, config.liveNotificationRetention()));
    }

    private static String address(long userId, int deviceSn) {
        return userId + ":" + deviceSn;
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The frames of one task, {@code {"type":"notification","task_id":..,"notification":{..,"badge":..}}}, built
     * once per distinct badge.
     */
    private final class Frames {

        private final long taskId;
        private final ObjectNode notification;
        private final Map<Integer, String> byBadge = new HashMap<>();

        Frames(long taskId, ObjectNode notification) {
            this.taskId = taskId;
            this.notification = notification;
        }

        String forBadge(Integer badge) {
            return byBadge.computeIfAbsent(badge, b -> {
                ObjectNode content = notification.deepCopy();
                if (b != null) {
                    content.put("badge", b);
                }
                ObjectNode frame = mapper.createObjectNode();
                frame.put("type", "notification");
                frame.put("task_id", taskId);
                frame.set("notification", content);
                return json(frame);
            });
        }
    }
}
