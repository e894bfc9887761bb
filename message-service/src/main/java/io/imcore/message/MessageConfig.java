package io.imcore.message;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** message-service settings ({@code im.message.*}); defaults follow decisions.md section 4. */
@ConfigMapping(prefix = "im.message")
public interface MessageConfig {

    /** A repeated transaction_id from the same sender within this window is not executed. */
    @WithDefault("10M")
    Duration dedupWindow();

    @WithDefault("2000")
    int groupMaxMembers();

    /** This replica's name in the presence table; a random one when empty. */
    Optional<String> replicaId();

    /** How often a replica proves it is alive; its connections count as gone after {@link #presenceExpiry()}. */
    @WithDefault("5S")
    Duration presenceHeartbeat();

    @WithDefault("20S")
    Duration presenceExpiry();

    /** A client connection that has not authenticated within this time is closed. */
    @WithDefault("10S")
    Duration liveAuthTimeout();

    /** A client connection that sends nothing (not even ping) for this long is closed. */
    @WithDefault("90S")
    Duration liveIdleTimeout();

    /** How often each replica looks for users whose credentials died, to close their live connections. */
    @WithDefault("0.5S")
    Duration liveRevocationPoll();

    /**
     * How far back each look reaches: a change is looked at again on every poll for this long, so a connection that
     * authenticated against a state read just before the change (the auth view's cache, a slow connect) is still
     * found and closed. Closing is idempotent, so the repeats cost a small read.
     */
    @WithDefault("30S")
    Duration liveRevocationLookback();

    /**
     * How long a svcpush notification handed to another replica stays stored for that replica to read (it reads
     * it within milliseconds of the NOTIFY; older rows are purged).
     */
    @WithDefault("10M")
    Duration liveNotificationRetention();

    /**
     * How long after sending a sender may recall a message, unless the app set its own window
     * (POST /app/message_settings).
     */
    @WithDefault("2M")
    Duration recallWindow();

    /** How long after sending a sender may edit a text message, unless the app set its own. */
    @WithDefault("24H")
    Duration editWindow();

    /** How long a replica reuses an app's message settings from memory: another replica's change arrives within it. */
    @WithDefault("5S")
    Duration settingsCacheTtl();

    /** Offline push of messages to devices without a live connection (docs/offline-push.md). */
    OfflinePush offlinePush();

    interface OfflinePush {

        /** Announce stored messages on message.events for push-service. */
        @WithDefault("true")
        boolean enabled();

        /**
         * A recipient device connected when the message was stored that has not acknowledged it (no {@code ack}
         * frame of any of the user's devices) within this time is announced for an OS notification.
         */
        @WithDefault("3S")
        Duration ackTimeout();

        /** How often the publisher looks for due messages when it found none. */
        @WithDefault("20MS")
        Duration pollInterval();

        /** Messages announced per transaction at most. */
        @WithDefault("200")
        int batchSize();
    }

    /** Group commit of 1:1 sends (docs/messages.md "Group commit"). */
    SendCommit sendCommit();

    interface SendCommit {

        /**
         * Committer threads, each with one database connection: one batch commits per thread at a time while the
         * next one queues up.
         */
        @WithDefault("2")
        int threads();

        /** 1:1 messages stored per transaction at most. */
        @WithDefault("200")
        int maxBatch();
    }

    /** The users' change logs read by GET /message/sync and replayed on /ws (docs/api-decisions.md "Sync"). */
    Sync sync();

    interface Sync {

        /** How long a change is kept in its user's log; a cursor older than that answers 21003. */
        @WithDefault("30D")
        Duration retention();

        /** Apps that keep their changes for another time than {@link #retention()}, by app id. */
        Map<String, Duration> retentionByApp();

        /** Rows the retention sweep deletes per statement. */
        @WithDefault("5000")
        int sweepBatch();
    }
}
