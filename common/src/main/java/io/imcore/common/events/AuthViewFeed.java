package io.imcore.common.events;

import io.imcore.common.context.AuthViewStore;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps this service's auth view ({@code auth_view_apps}, {@code auth_view_users}) from the {@value AuthEvent#TOPIC}
 * topic on the connector channel {@value #CHANNEL}, as consumer group {@code <application name>.auth-view} (common's
 * microprofile-config.properties). Replays are harmless (upserts that never move a version backwards). Enabled with
 * {@code im.auth-view.enabled=true}; elsewhere the channel is off and this method stays unconnected.
 */
@ApplicationScoped
public class AuthViewFeed {

    static final String CHANNEL = "auth-view";

    private final TopicFeeder feeder;

    public AuthViewFeed(TopicFeeder feeder) {
        this.feeder = feeder;
    }

    /** One poll, applied in one transaction; the connector commits its offsets only after this returns. */
    @Incoming(CHANNEL)
    @Blocking
    public void consume(ConsumerRecords<String, String> poll) throws InterruptedException {
        feeder.applyUntilCommitted(CHANNEL, poll, feeder.events(AuthEvent.class, this::apply));
    }

    private void apply(Connection c, ConsumerRecord<String, String> record, AuthEvent event) throws SQLException {
        if (event.type() == null || event.appId() == null) {
            return;
        }
        switch (event.type()) {
            case AuthEvent.APP_CREATED, AuthEvent.APP_ADMIN_TOKEN_ROTATED ->
                    AuthViewStore.upsertApp(c, event.appId(), event.adminTokenVersion());
            case AuthEvent.USER_REGISTERED, AuthEvent.USER_CHANGED -> AuthViewStore.upsertUser(
                    c, event.appId(), event.userId(), event.tokenVersion(), event.disabled());
            default -> { } // device events and future types are for other views
        }
    }
}
