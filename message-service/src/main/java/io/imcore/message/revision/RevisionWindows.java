package io.imcore.message.revision;

import io.imcore.common.api.ApiException;
import io.imcore.common.context.ExpiringCache;
import io.imcore.common.store.Database;
import io.imcore.message.MessageConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;

/**
 * Each app's recall and edit windows ({@code message_settings}, migration V11_1): the app's own, else
 * {@code im.message.recall-window} and {@code im.message.edit-window}. Kept in memory for
 * {@code im.message.settings-cache-ttl}; a save is seen at once on its replica.
 */
@ApplicationScoped
public class RevisionWindows {

    /** The longest window an app may set: 30 days. */
    static final int MAX_WINDOW_SECONDS = 30 * 24 * 3600;

    /** The windows in force for an app. */
    record Windows(Duration recall, Duration edit) {}

    private final Database database;
    private final MessageConfig config;
    private final ExpiringCache<String, Windows> cache;

    public RevisionWindows(Database database, MessageConfig config) {
        this.database = database;
        this.config = config;
        this.cache = new ExpiringCache<>(config.settingsCacheTtl(), 100_000);
    }

    Windows of(String appId) {
        Windows cached = cache.get(appId);
        if (cached != null) {
            return cached;
        }
        Integer[] stored = database.read(c -> read(c, appId));
        Windows windows = new Windows(
                stored[0] == null ? config.recallWindow() : Duration.ofSeconds(stored[0]),
                stored[1] == null ? config.editWindow() : Duration.ofSeconds(stored[1]));
        cache.put(appId, windows);
        return windows;
    }

    MessageSettings settings(String appId) {
        Windows windows = of(appId);
        return new MessageSettings((int) windows.recall().toSeconds(), (int) windows.edit().toSeconds());
    }

    /** Replaces the app's windows (an absent one: the default) and answers the windows now in force. */
    MessageSettings save(String appId, MessageSettings body) {
        if (body == null) {
            throw ApiException.badParameter("body", "required");
        }
        check("recall_window_seconds", body.recallWindowSeconds());
        check("edit_window_seconds", body.editWindowSeconds());
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into message_settings"
                    + " (app_id, recall_window_seconds, edit_window_seconds, updated_at) values (?, ?, ?, now())"
                    + " on conflict (app_id) do update set recall_window_seconds = excluded.recall_window_seconds,"
                    + " edit_window_seconds = excluded.edit_window_seconds, updated_at = now()")) {
                ps.setString(1, appId);
                setSeconds(ps, 2, body.recallWindowSeconds());
                setSeconds(ps, 3, body.editWindowSeconds());
                ps.executeUpdate();
            }
            return null;
        });
        cache.remove(appId);
        return settings(appId);
    }

    private static void check(String field, Integer seconds) {
        if (seconds != null && (seconds < 0 || seconds > MAX_WINDOW_SECONDS)) {
            throw ApiException.badParameter(field, "must be 0 to " + MAX_WINDOW_SECONDS + " (30 days)");
        }
    }

    private static void setSeconds(PreparedStatement ps, int index, Integer seconds) throws SQLException {
        if (seconds == null) {
            ps.setNull(index, Types.INTEGER);
        } else {
            ps.setInt(index, seconds);
        }
    }

    /** {recall, edit} seconds as stored, null where the app uses the default (or has no row). */
    private static Integer[] read(Connection c, String appId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select recall_window_seconds, edit_window_seconds from message_settings where app_id = ?")) {
            ps.setString(1, appId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return new Integer[2];
                }
                return new Integer[] {rs.getObject(1, Integer.class), rs.getObject(2, Integer.class)};
            }
        }
    }
}
