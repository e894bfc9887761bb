package io.imcore.common.events;

import io.imcore.common.context.AuthViewStore;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.sql.Connection;
import java.sql.SQLException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps this service's auth view ({@code auth_view_apps}, {@code auth_view_users}) from the {@value AuthEvent#TOPIC}
 * topic through a {@link TopicFeeder}, as consumer group {@code <application name>.auth-view}. Replays are harmless
 * (upserts that never move a version backwards). Enabled with {@code im.auth-view.enabled=true}.
 */
@ApplicationScoped
public class AuthViewUpdater {

    private final TopicFeeder feeder;
    private final boolean enabled;
    private final String groupId;

    public AuthViewUpdater(TopicFeeder feeder,
            @ConfigProperty(name = "im.auth-view.enabled", defaultValue = "false") boolean enabled,
            @ConfigProperty(name = "quarkus.application.name") String applicationName) {
        this.feeder = feeder;
        this.enabled = enabled;
        this.groupId = applicationName + ".auth-view";
    }

    void start(@Observes StartupEvent event) {
        if (enabled) {
            feeder.feed(AuthEvent.TOPIC, groupId, "auth-view-updater", this::apply);
        }
    }

    private void apply(Connection c, ConsumerRecord<String, String> record) throws SQLException {
        AuthEvent event = feeder.read(record, AuthEvent.class).orElse(null);
        if (event == null || event.type() == null || event.appId() == null) {
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
