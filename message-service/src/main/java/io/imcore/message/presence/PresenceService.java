package io.imcore.message.presence;

import io.imcore.common.events.Outbox;
import io.imcore.common.events.PresenceEvent;
import io.imcore.common.store.Database;
import io.imcore.common.store.GroupCommitter;
import io.imcore.message.MessageConfig;
import io.imcore.message.presence.PresenceStore.Device;
import io.imcore.message.presence.PresenceStore.DeviceConnection;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.logging.Logger;

/**
 * Presence of live connections across replicas: each replica keeps its heartbeat, records its connections, and
 * publishes every change on {@value PresenceEvent#TOPIC} through the outbox (in the same transaction).
 * A replica that stops heartbeating is reaped by the others, with offline events for its connections. Connects and
 * disconnects are group-committed (docs/live-protocol.md "Across replicas").
 */
@ApplicationScoped
public class PresenceService {

    private static final Logger LOG = Logger.getLogger(PresenceService.class);
    /** The most connects and disconnects one group commit stores. */
    private static final int MAX_BATCH = 500;

    /** A connect, or a disconnect with the presence sequence its connect got. */
    private record Change(boolean connect, DeviceConnection device, long seq) {}

    private final Database database;
    private final PresenceStore presence;
    private final Outbox outbox;
    private final MessageConfig config;
    private final String replicaId;
    private final GroupCommitter<Change, Long> changes;

    public PresenceService(Database database, PresenceStore presence, Outbox outbox, MessageConfig config,
            MeterRegistry registry) {
        this.database = database;
        this.presence = presence;
        this.outbox = outbox;
        this.config = config;
        // the replica id names a NOTIFY channel: keep it to lower-case letters, digits and '_'
        this.replicaId = config.replicaId().filter(id -> !id.isBlank())
                .map(id -> id.toLowerCase().replaceAll("[^a-z0-9_]", "_"))
                .orElse("r" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        this.changes = new GroupCommitter<>("presence-commit", database, MAX_BATCH,
                change -> change.device().deviceKey(), this::store,
                DistributionSummary.builder("imcore.presence.commit.batch")
                        .description("connects and disconnects stored per group commit").register(registry));
    }

    public String replicaId() {
        return replicaId;
    }

    void start(@Observes StartupEvent event) {
        database.inTransaction(c -> {
            presence.heartbeat(c, replicaId);
            return null;
        });
        changes.start();
    }

    /** Stops counting this replica's connections at once (they close with the process). */
    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        changes.stop();
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

    /**
     * Records a new connection of the device on this replica (group-committed with others); completes with its
     * presence sequence (ms) once committed.
     */
    public CompletableFuture<Long> connected(String appId, long userId, int deviceSn, String connectionId) {
        return changes.submit(new Change(true, new DeviceConnection(appId, userId, deviceSn, connectionId), 0));
    }

    /** The connection closed: its presence goes unless the device has connected again ({@code seq}: its connect's). */
    public CompletableFuture<Long> disconnected(String appId, long userId, int deviceSn, String connectionId,
            long seq) {
        return changes.submit(new Change(false, new DeviceConnection(appId, userId, deviceSn, connectionId), seq));
    }

    public OnlineStatus status(String appId, long userId) {
        List<Device> devices = database.read(c -> presence.online(c, appId, new long[] {userId},
                config.presenceExpiry()));
        return new OnlineStatus(userId, !devices.isEmpty(),
                devices.stream().map(d -> new OnlineStatus.OnlineDevice(d.deviceSn(), d.connectedAtMs())).toList());
    }

    /**
     * A group commit's connects (one statement), disconnects (one statement) and their events; returns each change's
     * presence sequence, in the batch's order.
     */
    private List<Long> store(Connection c, List<Change> batch) throws SQLException {
        List<DeviceConnection> connects = batch.stream().filter(Change::connect).map(Change::device).toList();
        List<DeviceConnection> disconnects = batch.stream().filter(change -> !change.connect()).map(Change::device)
                .toList();
        Map<String, Long> connectedAt = connects.isEmpty() ? Map.of() : presence.connect(c, replicaId, connects);
        Set<String> removed = disconnects.isEmpty() ? Set.of() : presence.disconnect(c, disconnects);
        List<Long> seqs = new ArrayList<>(batch.size());
        List<String> keys = new ArrayList<>();
        List<PresenceEvent> events = new ArrayList<>();
        for (Change change : batch) {
            DeviceConnection device = change.device();
            long seq = change.connect() ? connectedAt.get(device.connectionId()) : change.seq();
            seqs.add(seq);
            if (change.connect() || removed.contains(device.connectionId())) {
                PresenceEvent event = PresenceEvent.of(change.connect() ? PresenceEvent.DEVICE_ONLINE
                        : PresenceEvent.DEVICE_OFFLINE, device.appId(), device.userId(), device.deviceSn(),
                        replicaId, seq);
                keys.add(event.key());
                events.add(event);
            }
        }
        outbox.appendAll(c, PresenceEvent.TOPIC, keys, events);
        return seqs;
    }

    private void publish(Connection c, String type, Device device, long seq) throws SQLException {
        PresenceEvent event = PresenceEvent.of(type, device.appId(), device.userId(), device.deviceSn(),
                device.replicaId(), seq);
        outbox.append(c, PresenceEvent.TOPIC, event.key(), event);
    }
}
