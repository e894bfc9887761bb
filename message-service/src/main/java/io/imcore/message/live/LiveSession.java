package io.imcore.message.live;

import io.vertx.core.http.ServerWebSocket;

/** One authenticated device connection on this replica. */
public final class LiveSession {

    final ServerWebSocket socket;
    final String appId;
    final long userId;
    final int deviceSn;
    final String connectionId;
    volatile long lastSeenMs = System.currentTimeMillis();
    /** Presence sequence of this connection (its connection time in ms), carried by its presence events. */
    volatile long connectedSeq;

    LiveSession(ServerWebSocket socket, String appId, long userId, int deviceSn, String connectionId) {
        this.socket = socket;
        this.appId = appId;
        this.userId = userId;
        this.deviceSn = deviceSn;
        this.connectionId = connectionId;
    }

    String userKey() {
        return key(appId, userId);
    }

    static String key(String appId, long userId) {
        return appId + ":" + userId;
    }
}
