package io.imcore.message.webhook;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code webhook_endpoints}: plain statements (docs/architecture.md "What stays plain SQL"), as the send path reads
 * an endpoint on its own connection together with the word filter (one statement, cached).
 */
@ApplicationScoped
public class WebhookEndpointStore {

    static final String COLUMNS = "app_id, url, events, before_send, hook_timeout_ms, hook_fail_open, batch_size,"
            + " secret_sealed, disabled_at, disabled_reason";

    private final WebhookSecrets secrets;

    public WebhookEndpointStore(WebhookSecrets secrets) {
        this.secrets = secrets;
    }

    /** Creates or replaces the app's endpoint with a new secret; a disabled endpoint is enabled again. */
    public void save(Connection c, WebhookEndpoint endpoint) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into webhook_endpoints (app_id, url, events, before_send, hook_timeout_ms, hook_fail_open,
                                               batch_size, secret_sealed, disabled_at, disabled_reason,
                                               updated_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, null, null, now())
                on conflict (app_id) do update set url = excluded.url, events = excluded.events,
                    before_send = excluded.before_send, hook_timeout_ms = excluded.hook_timeout_ms,
                    hook_fail_open = excluded.hook_fail_open, batch_size = excluded.batch_size,
                    secret_sealed = excluded.secret_sealed, disabled_at = null, disabled_reason = null, updated_at = now()
                """)) {
            s.setString(1, endpoint.appId());
            s.setString(2, endpoint.url());
            s.setArray(3, c.createArrayOf("text", endpoint.events().toArray()));
            s.setBoolean(4, endpoint.beforeSend());
            s.setInt(5, endpoint.hookTimeoutMs());
            s.setBoolean(6, endpoint.hookFailOpen());
            s.setInt(7, endpoint.batchSize());
            s.setBytes(8, secrets.seal(endpoint.secret(), endpoint.appId()));
            s.executeUpdate();
        }
    }

    public Optional<WebhookEndpoint> find(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select " + COLUMNS + " from webhook_endpoints where app_id = ?")) {
            s.setString(1, appId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(read(rs, 1)) : Optional.empty();
            }
        }
    }

    /** The event types the app's endpoint takes ({@link WebhookEndpoint#events}); empty when it has none. */
    public Set<String> events(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select events from webhook_endpoints where app_id = ?")) {
            s.setString(1, appId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Set.copyOf(Arrays.asList((String[]) rs.getArray(1).getArray())) : Set.of();
            }
        }
    }

    /** Disables the endpoint (deliveries stop, the console shows why) unless it is disabled already. */
    public boolean disable(Connection c, String appId, String reason) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                update webhook_endpoints set disabled_at = now(), disabled_reason = ?
                where app_id = ? and disabled_at is null
                """)) {
            s.setString(1, reason);
            s.setString(2, appId);
            return s.executeUpdate() == 1;
        }
    }

    public long countDisabled(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select count(*) from webhook_endpoints where disabled_at is not null");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The endpoint in the columns {@link #COLUMNS} from {@code first} on; null when they are null (no endpoint). */
    public WebhookEndpoint read(ResultSet rs, int first) throws SQLException {
        String appId = rs.getString(first);
        if (appId == null) {
            return null;
        }
        Array events = rs.getArray(first + 2);
        Timestamp disabledAt = rs.getTimestamp(first + 8);
        return new WebhookEndpoint(appId, rs.getString(first + 1), List.copyOf(Arrays.asList((String[]) events.getArray())),
                rs.getBoolean(first + 3), rs.getInt(first + 4), rs.getBoolean(first + 5), rs.getInt(first + 6),
                secrets.open(rs.getBytes(first + 7), appId), disabledAt == null ? null : disabledAt.toInstant(), rs.getString(first + 9));
    }
}
