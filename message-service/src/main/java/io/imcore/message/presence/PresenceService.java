package io.imcore.message.presence;

import io.imcore.common.events.Outbox;
import io.imcore.common.events.PresenceEvent;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.imcore.message.presence.PresenceStore.Device;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Presence of live connections across replicas: each replica keeps its heartbeat, records its connections, and
 * publishes every change on {@value PresenceEvent#TOPIC} through the outbox (in the same transaction).
 * A replica that stops heartbeating is reaped by the others, with offline events for its connections.
 */
@ApplicationScoped
public class PresenceService {

    private static final Logger LOG = Logger.getLogger(PresenceService.class);

    private final Database database;
    private final PresenceStore presence;
    private final Outbox outbox;
    private final MessageConfig config;
    private final String replicaId;

    public PresenceService(Database database, PresenceStore presence, Outbox outbox, MessageConfig config) {
        this.database = database;
        this.presence = presence;
        this.outbox = outbox;
        this.config = config;
        // the replica id names a NOTIFY channel: keep it to lower-case letters, digits and '_'
        this.replicaId = config.replicaId().filter(id -> !id.isBlank())
                .map(id -> id.toLowerCase().replaceAll("[^a-z0-9_]", "_"))
                .orElse("r" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
    }

    public String replicaId() {
        return replicaId;
    }

    void start(@Observes StartupEvent event) {
        database.inTransaction(c -> {
            presence.heartbeat(c, replicaId);
            return null;
        });
    }

    /** Stops counting this replica's connections at once (they close with the process). */
    void stop(@Observes ShutdownEvent event) {
        try {
            database.inTransaction(c -> {
                for (Device device : presence.removeReplica(c, replicaId)) {
                    publish(c, PresenceEvent.DEVICE_OFFLINE, device, device.connectedAtMs());
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warnf("could not remove this replica's presence at shutdown (others reap it): %s", e.getMessage());
        }
    }

    @Scheduled(every = "${im.message.presence-heartbeat:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void heartbeat() {
        database.inTransaction(c -> {
            presence.heartbeat(c, replicaId);
            for (Device device : presence.reapDeadReplicas(c, config.presenceExpiry())) {
                publish(c, PresenceEvent.DEVICE_OFFLINE, device, device.connectedAtMs());
            }
            return null;
        });
    }

    /** Records a new connection of the device on this replica; returns its presence sequence (ms). */
    public long connected(String appId, long userId, int deviceSn, String connectionId) {
        return database.inTransaction(c -> {
            long seq = presence.connect(c, appId, userId, deviceSn, replicaId, connectionId);
            publish(c, PresenceEvent.DEVICE_ONLINE, new Device(appId, userId, deviceSn, replicaId, seq), seq);
            return seq;
        });
    }

    public void disconnected(String appId, long userId, int deviceSn, String connectionId, long seq) {
        database.inTransaction(c -> {
            if (presence.disconnect(c, appId, userId, deviceSn, connectionId)) {
                publish(c, PresenceEvent.DEVICE_OFFLINE, new Device(appId, userId, deviceSn, replicaId, seq), seq);
            }
            return null;
        });
    }

    public OnlineStatus status(String appId, long userId) {
        List<Device> devices = database.read(c -> presence.online(c, appId, new long[] {userId},
                config.presenceExpiry()));
        return new OnlineStatus(userId, !devices.isEmpty(),
                devices.stream().map(d -> new OnlineStatus.OnlineDevice(d.deviceSn(), d.connectedAtMs())).toList());
    }

    private void publish(Connection c, String type, Device device, long seq) throws SQLException {
        PresenceEvent event = PresenceEvent.of(type, device.appId(), device.userId(), device.deviceSn(),
                device.replicaId(), seq);
        outbox.append(c, PresenceEvent.TOPIC, event.key(), event);
    }
}
