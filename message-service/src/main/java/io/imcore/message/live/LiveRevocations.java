package io.imcore.message.live;

import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Closes the live connections whose credentials died after they authenticated: a password change or an admin's
 * revocation (the user's token version moved on) or a disable. Every replica reads, once per
 * {@code im.message.live-revocation-poll}, the auth view's users whose credentials changed within
 * {@code im.message.live-revocation-lookback} (an index read of a few rows, whatever the view holds) and closes its
 * own connections of them with {@value LiveEndpoint#CLOSE_CREDENTIALS_DIED}. The view is shared by the replicas, so
 * each one learns of a change whichever replica's consumer applied the event. A token's own expiry is a timer per
 * connection (LiveEndpoint).
 */
@ApplicationScoped
public class LiveRevocations {

    private static final Logger LOG = Logger.getLogger(LiveRevocations.class);

    private final Database database;
    private final LiveConnections connections;
    private final MessageConfig config;
    private final Counter closed;

    public LiveRevocations(Database database, LiveConnections connections, MessageConfig config,
            MeterRegistry registry) {
        this.database = database;
        this.connections = connections;
        this.config = config;
        this.closed = registry.counter("imcore.live.revoked.closed");
    }

    /** A user whose tokens below {@code tokenVersion} are dead, or all of them when disabled. */
    record DeadCredentials(String appId, long userId, int tokenVersion, boolean disabled) {

        boolean kills(LiveSession session) {
            return disabled || session.tokenVersion < tokenVersion;
        }
    }

    @Scheduled(every = "${im.message.live-revocation-poll}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void closeRevoked() {
        if (connections.size() == 0) {
            return;
        }
        List<DeadCredentials> changes;
        try {
            changes = recentChanges();
        } catch (RuntimeException e) {
            LOG.warnf("revoked users not read (tried again in %s): %s", config.liveRevocationPoll(), e.getMessage());
            return;
        }
        for (DeadCredentials change : changes) {
            for (LiveSession session : connections.of(change.appId(), change.userId())) {
                if (change.kills(session)) {
                    closed.increment();
                    session.socket.close(LiveEndpoint.CLOSE_CREDENTIALS_DIED,
                            change.disabled() ? "user disabled" : "token revoked");
                }
            }
        }
    }

    private List<DeadCredentials> recentChanges() {
        return database.read(c -> {
            List<DeadCredentials> rows = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("select app_id, user_id, token_version, disabled"
                    + " from auth_view_users where credentials_changed_at > now() - ? * interval '1 millisecond'")) {
                ps.setLong(1, config.liveRevocationLookback().toMillis());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new DeadCredentials(rs.getString(1), rs.getLong(2), rs.getInt(3), rs.getBoolean(4)));
                    }
                }
            }
            return rows;
        });
    }
}
