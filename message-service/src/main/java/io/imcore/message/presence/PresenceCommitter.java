package io.imcore.message.presence;

import io.imcore.common.events.Outbox;
import io.imcore.common.events.PresenceEvent;
import io.imcore.common.store.Database;
import io.imcore.message.presence.PresenceStore.DeviceConnection;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Group commit of this replica's connects and disconnects (docs/live-protocol.md "Across replicas"). A connect waited for
 * its own commit, so a burst of devices reconnecting was bound by the database's commit rate; here one thread
 * stores whatever is queued in one transaction (the connects in one statement, the disconnects in another, their
 * presence events in the outbox) and answers each caller after that commit. Nothing waits for a batch to fill.
 * <p>
 * A device connected twice within one batch keeps its second connect for the next batch (one statement cannot
 * update a row twice), so the later connection wins as it would alone. A batch that fails is retried one change
 * per transaction, so one bad change fails only its own caller.
 */
class PresenceCommitter {

    private static final Logger LOG = Logger.getLogger(PresenceCommitter.class);
    private static final int MAX_BATCH = 500;

    /**
     * A connect or a disconnect ({@code seq}: the time its connect returned); {@code done} completes after its
     * commit, with the presence sequence (ms).
     */
    private record Change(boolean connect, DeviceConnection device, long seq, CompletableFuture<Long> done) {

        String deviceKey() {
            return device.appId() + '\u0000' + device.userId() + '\u0000' + device.deviceSn();
        }
    }

    private final Database database;
    private final PresenceStore presence;
    private final Outbox outbox;
    private final String replicaId;
    private final DistributionSummary batchSizes;
    private final BlockingQueue<Change> queue = new LinkedBlockingQueue<>();
    private Thread committer;
    private volatile boolean running;

    PresenceCommitter(Database database, PresenceStore presence, Outbox outbox, String replicaId,
            MeterRegistry registry) {
        this.database = database;
        this.presence = presence;
        this.outbox = outbox;
        this.replicaId = replicaId;
        this.batchSizes = DistributionSummary.builder("imcore.presence.commit.batch")
                .description("connects and disconnects stored per group commit").register(registry);
    }

    void start() {
        running = true;
        committer = new Thread(this::commitLoop, "presence-commit");
        committer.setDaemon(true);
        committer.start();
    }

    /** Commits what is queued; later changes commit alone. */
    void stop() throws InterruptedException {
        running = false;
        if (committer != null) {
            committer.join(10_000);
        }
        for (Change late; (late = queue.poll()) != null; ) { // queued as the loop ended
            commitAlone(late);
        }
    }

    /** Records the connection of the device on this replica; completes with its presence sequence (ms). */
    CompletableFuture<Long> connect(DeviceConnection device) {
        return submit(new Change(true, device, 0, new CompletableFuture<>()));
    }

    /**
     * Removes the connection unless the device has connected again since; {@code seq} is the one its connect
     * returned (the offline event carries it).
     */
    CompletableFuture<Long> disconnect(DeviceConnection device, long seq) {
        return submit(new Change(false, device, seq, new CompletableFuture<>()));
    }

    private CompletableFuture<Long> submit(Change change) {
        if (running) {
            queue.add(change);
        } else { // starting or stopping: no committer thread; the caller may be an event loop
            CompletableFuture.runAsync(() -> commitAlone(change));
        }
        return change.done();
    }

    private void commitLoop() {
        List<Change> batch = new ArrayList<>(MAX_BATCH);
        List<Change> deferred = new ArrayList<>();
        while (running || !queue.isEmpty() || !deferred.isEmpty()) {
            try {
                batch.addAll(deferred);
                deferred.clear();
                if (batch.isEmpty()) {
                    Change first = queue.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                }
                queue.drainTo(batch, MAX_BATCH - batch.size());
                deferRepeatedDevices(batch, deferred);
                commitBatch(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deferred.forEach(c -> c.done().completeExceptionally(e));
                return;
            } catch (RuntimeException | Error e) { // never leave a caller waiting, never lose the thread
                LOG.errorf(e, "group commit of %d presence changes failed unexpectedly", batch.size());
                batch.forEach(c -> c.done().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    /** Moves each change of a device an earlier change of the batch already has to {@code deferred}, in order. */
    private static void deferRepeatedDevices(List<Change> batch, List<Change> deferred) {
        Set<String> seen = new HashSet<>();
        batch.removeIf(change -> {
            boolean repeated = !seen.add(change.deviceKey());
            if (repeated) {
                deferred.add(change);
            }
            return repeated;
        });
    }

    private void commitBatch(List<Change> batch) {
        if (batch.size() == 1) {
            commitAlone(batch.get(0));
            return;
        }
        long[] seqs;
        try {
            seqs = database.inTransaction(c -> store(c, batch));
        } catch (RuntimeException e) {
            LOG.debugf("group commit of %d presence changes failed, each is committed alone: %s", batch.size(),
                    e.toString());
            batch.forEach(this::commitAlone);
            return;
        }
        batchSizes.record(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            batch.get(i).done().complete(seqs[i]);
        }
    }

    private void commitAlone(Change change) {
        try {
            long seq = database.inTransaction(c -> store(c, List.of(change)))[0];
            batchSizes.record(1);
            change.done().complete(seq);
        } catch (RuntimeException e) {
            change.done().completeExceptionally(e);
        }
    }

    /**
     * The batch's connects (one statement), its disconnects (one statement) and their events, in the caller's
     * transaction; returns each change's presence sequence, in the batch's order.
     */
    private long[] store(Connection c, List<Change> batch) throws SQLException {
        List<DeviceConnection> connects = batch.stream().filter(Change::connect).map(Change::device).toList();
        List<DeviceConnection> disconnects = batch.stream().filter(change -> !change.connect()).map(Change::device)
                .toList();
        Map<String, Long> connectedAt = connects.isEmpty() ? Map.of() : presence.connect(c, replicaId, connects);
        Set<String> removed = disconnects.isEmpty() ? Set.of() : presence.disconnect(c, disconnects);
        long[] seqs = new long[batch.size()];
        List<String> keys = new ArrayList<>();
        List<PresenceEvent> events = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Change change = batch.get(i);
            String connectionId = change.device().connectionId();
            seqs[i] = change.connect() ? connectedAt.get(connectionId) : change.seq();
            if (change.connect() || removed.contains(connectionId)) {
                DeviceConnection device = change.device();
                PresenceEvent event = PresenceEvent.of(change.connect() ? PresenceEvent.DEVICE_ONLINE
                        : PresenceEvent.DEVICE_OFFLINE, device.appId(), device.userId(), device.deviceSn(),
                        replicaId, seqs[i]);
                keys.add(event.key());
                events.add(event);
            }
        }
        outbox.appendAll(c, PresenceEvent.TOPIC, keys, events);
        return seqs;
    }
}
