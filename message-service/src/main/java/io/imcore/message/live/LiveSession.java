package io.imcore.message.live;

import io.imcore.message.conversation.ConversationService.AckTarget;
import io.vertx.core.http.ServerWebSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** One authenticated device connection on this replica. */
public final class LiveSession {

    /** How many svcpush tasks a connection remembers for their acknowledgement (the oldest are forgotten). */
    private static final int REMEMBERED_TASKS = 128;
    /** How many conversations a connection remembers for its message acks (the least recent are forgotten). */
    private static final int REMEMBERED_ACK_TARGETS = 64;

    /** What a {@code notification_ack} may do: the task was not delivered here, or this is its first ack, or not. */
    enum AckClaim { NOT_DELIVERED, FIRST, REPEATED }

    final ServerWebSocket socket;
    final String appId;
    final long userId;
    final int deviceSn;
    final String connectionId;
    /** The token's version: a later version in the auth view means this token was revoked. */
    final int tokenVersion;
    /** When the token expires (epoch ms): the connection is closed then (its timer in LiveEndpoint). */
    final long expiresAtMs;
    /** The Vert.x timer that closes the connection when its token expires. */
    volatile long expiryTimer = -1;
    volatile long lastSeenMs = System.currentTimeMillis();
    /** When this device's last relayed typing frame came (epoch ms); touched only on the connection's event loop. */
    long lastTypingMs;
    /** Presence sequence of this connection (its connection time in ms), carried by its presence events. */
    volatile long connectedSeq;
    /** svcpush task ids delivered on this connection, oldest first, and whether each has been acknowledged. */
    private final Map<Long, Boolean> deliveredTasks = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > REMEMBERED_TASKS;
        }
    };

    /**
     * The checked direct and system conversations this device acked, by address: a later ack goes straight to the
     * group commit, without a look-up (one per ack cost the live path ~14 % of its database time, issue 34).
     * Touched only on the connection's event loop.
     */
    private final Map<Long, AckTarget> ackTargets = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, AckTarget> eldest) {
            return size() > REMEMBERED_ACK_TARGETS;
        }
    };

    /** A live frame and its position in the user's log. */
    private record HeldFrame(long position, String frame) {}

    /**
     * The live frames that arrived before the auth answer and the replay were written, in arrival order; null once
     * they were (docs/live-protocol.md "Replay").
     */
    private List<HeldFrame> held = new ArrayList<>();
    /** Live frames at or below this position were written by the replay. */
    private long replayedUpTo;

    LiveSession(ServerWebSocket socket, String appId, long userId, int deviceSn, String connectionId,
            int tokenVersion, long expiresAtMs) {
        this.socket = socket;
        this.appId = appId;
        this.userId = userId;
        this.deviceSn = deviceSn;
        this.connectionId = connectionId;
        this.tokenVersion = tokenVersion;
        this.expiresAtMs = expiresAtMs;
    }

    String userKey() {
        return key(appId, userId);
    }

    static String key(String appId, long userId) {
        return appId + ":" + userId;
    }

    /** Whether the auth answer and the replay have been written: until then live frames are held. */
    synchronized boolean started() {
        return held == null;
    }

    /**
     * A live frame of the change at {@code position}: written now, held until the replay ends, or dropped when the
     * replay wrote it.
     */
    synchronized void live(long position, String frame, Consumer<String> write) {
        if (held != null) {
            held.add(new HeldFrame(position, frame));
        } else if (position > replayedUpTo) {
            write.accept(frame);
        }
    }

    /** The replay wrote everything up to {@code position}: the held frames after it are written, then live ones. */
    synchronized void replayed(long position, Consumer<String> write) {
        replayedUpTo = position;
        for (HeldFrame early : held) {
            if (early.position() > position) {
                write.accept(early.frame());
            }
        }
        held = null;
    }

    /** A notification of the task is being written to this connection (a redelivery keeps an earlier ack). */
    synchronized void delivered(long taskId) {
        deliveredTasks.putIfAbsent(taskId, false);
    }

    /** Marks the task acknowledged; says whether it was delivered here and whether this is its first ack. */
    synchronized AckClaim claimAck(long taskId) {
        Boolean acked = deliveredTasks.get(taskId);
        if (acked == null) {
            return AckClaim.NOT_DELIVERED;
        }
        if (acked) {
            return AckClaim.REPEATED;
        }
        deliveredTasks.put(taskId, true);
        return AckClaim.FIRST;
    }

    /** The conversation of an earlier ack from this address, or null. */
    AckTarget ackTarget(long address) {
        return ackTargets.get(address);
    }

    void rememberAckTarget(long address, AckTarget target) {
        if (target.fixed()) {
            ackTargets.put(address, target);
        }
    }

    /** The receipt of a first ack could not be stored: the device may ack again. */
    synchronized void releaseAck(long taskId) {
        deliveredTasks.replace(taskId, true, false);
    }
}
