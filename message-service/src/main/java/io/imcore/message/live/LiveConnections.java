package io.imcore.message.live;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The authenticated connections held by this replica, by user. Writing never queues without bound: a client
 * whose socket buffer is full is disconnected (it reconnects and reads what it missed over HTTP).
 */
@ApplicationScoped
public class LiveConnections {

    private final Map<String, Set<LiveSession>> byUser = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final Counter framesSent;
    private final Counter slowClientsDropped;

    public LiveConnections(MeterRegistry registry) {
        registry.gauge("imcore.live.connections", count);
        this.framesSent = registry.counter("imcore.live.frames.sent");
        this.slowClientsDropped = registry.counter("imcore.live.slow.clients.dropped");
    }

    void add(LiveSession session) {
        if (byUser.computeIfAbsent(session.userKey(), k -> ConcurrentHashMap.newKeySet()).add(session)) {
            count.incrementAndGet();
        }
    }

    void remove(LiveSession session) {
        Set<LiveSession> sessions = byUser.get(session.userKey());
        if (sessions != null && sessions.remove(session)) {
            count.decrementAndGet();
            byUser.computeIfPresent(session.userKey(), (k, v) -> v.isEmpty() ? null : v);
        }
    }

    /**
     * Sends the frame of the user's change at {@code position} to every device of the user on this replica except
     * skipDeviceSn (null: none skipped); a connection still replaying holds it ({@link LiveSession#live}).
     */
    void send(String appId, long userId, Integer skipDeviceSn, long position, String frame) {
        Set<LiveSession> sessions = byUser.get(LiveSession.key(appId, userId));
        if (sessions == null) {
            return;
        }
        for (LiveSession session : sessions) {
            if (skipDeviceSn == null || skipDeviceSn != session.deviceSn) {
                session.live(position, frame, text -> write(session, text));
            }
        }
    }

    /**
     * Writes a frame that is not in the user's log (typing, read receipts: {@link LiveFrames}) to every device of the
     * user on this replica, at once: it has no position, so a replay neither holds nor drops it.
     */
    void sendUnlogged(String appId, long userId, String frame) {
        Set<LiveSession> sessions = byUser.get(LiveSession.key(appId, userId));
        if (sessions == null) {
            return;
        }
        for (LiveSession session : sessions) {
            write(session, frame);
        }
    }

    /** Ends the session's replay at {@code position}: its held frames after it are written. */
    void replayed(LiveSession session, long position) {
        session.replayed(position, text -> write(session, text));
    }

    /**
     * Writes a svcpush notification frame to the device's connection here and remembers the task for the device's
     * ack; false when no connection here took it. Should a reconnect have left an older connection of the device
     * open for a moment, only the newest gets the frame.
     */
    boolean notify(String appId, long userId, int deviceSn, long taskId, String frame) {
        Set<LiveSession> sessions = byUser.get(LiveSession.key(appId, userId));
        if (sessions == null) {
            return false;
        }
        LiveSession newest = null;
        for (LiveSession session : sessions) {
            if (session.deviceSn == deviceSn && session.started() && (newest == null || session.connectedSeq > newest.connectedSeq)) {
                newest = session;
            }
        }
        if (newest == null) {
            return false;
        }
        newest.delivered(taskId);
        return write(newest, frame);
    }

    boolean write(LiveSession session, String frame) {
        if (session.socket.isClosed()) {
            return false;
        }
        if (session.socket.writeQueueFull()) {
            slowClientsDropped.increment();
            session.socket.close((short) 1008, "too slow");
            return false;
        }
        session.socket.writeTextMessage(frame);
        framesSent.increment();
        return true;
    }

    /** The user's connections on this replica (a copy: closing them removes them from here). */
    List<LiveSession> of(String appId, long userId) {
        Set<LiveSession> sessions = byUser.get(LiveSession.key(appId, userId));
        return sessions == null ? List.of() : List.copyOf(sessions);
    }

    List<LiveSession> all() {
        List<LiveSession> sessions = new ArrayList<>();
        byUser.values().forEach(sessions::addAll);
        return sessions;
    }

    public int size() {
        return count.get();
    }
}
