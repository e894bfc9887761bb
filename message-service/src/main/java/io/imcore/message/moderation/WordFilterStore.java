package io.imcore.message.moderation;

import io.imcore.message.webhook.WebhookEndpoint;
import io.imcore.message.webhook.WebhookEndpointStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code webhook_word_filters}: one list of words per app with its action (plain statements, as the endpoint's). */
@ApplicationScoped
public class WordFilterStore {

    private final WebhookEndpointStore endpoints;

    public WordFilterStore(WebhookEndpointStore endpoints) {
        this.endpoints = endpoints;
    }

    public void save(Connection c, String appId, WordFilter.Action action, List<String> words) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("""
                insert into webhook_word_filters (app_id, action, words, updated_at) values (?, ?, ?, now())
                on conflict (app_id) do update set action = excluded.action, words = excluded.words,
                    updated_at = now()
                """)) {
            s.setString(1, appId);
            s.setString(2, action.name().toLowerCase(Locale.ROOT));
            s.setArray(3, c.createArrayOf("text", words.toArray()));
            s.executeUpdate();
        }
    }

    public void delete(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("delete from webhook_word_filters where app_id = ?")) {
            s.setString(1, appId);
            s.executeUpdate();
        }
    }

    /** The app's list as stored: its action and words. */
    public record Stored(WordFilter.Action action, List<String> words) {}

    public Optional<Stored> find(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select action, words from webhook_word_filters where app_id = ?")) {
            s.setString(1, appId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(new Stored(action(rs.getString(1)), words(rs, 2))) : Optional.empty();
            }
        }
    }

    /**
     * The send path's one read per app: its word list and its endpoint if the endpoint has a before-send hook (the
     * filter is built by the caller, once per read).
     */
    record ForSends(Stored filter, WebhookEndpoint hook) {}

    ForSends forSends(Connection c, String appId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select f.action, f.words, e.app_id, e.url, e.events,"
                + " e.before_send, e.hook_timeout_ms, e.hook_fail_open, e.batch_size, e.secret_sealed, e.disabled_at,"
                + " e.disabled_reason from (select ?::text as app_id) a"
                + " left join webhook_word_filters f on f.app_id = a.app_id"
                + " left join webhook_endpoints e on e.app_id = a.app_id and e.before_send")) {
            s.setString(1, appId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                String action = rs.getString(1);
                return new ForSends(action == null ? null : new Stored(action(action), words(rs, 2)),
                        endpoints.read(rs, 3));
            }
        }
    }

    static WordFilter.Action action(String stored) {
        return WordFilter.Action.valueOf(stored.toUpperCase(Locale.ROOT));
    }

    private static List<String> words(ResultSet rs, int column) throws SQLException {
        return List.of((String[]) rs.getArray(column).getArray());
    }
}
