package io.imcore.push;

import io.imcore.common.store.Database;
import io.imcore.testing.TestApp;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Test helper: a {@link TestApp} whose devices are written into the registry as the device.registered consumer
 * writes them, with push switched on unless a test switches it off.
 */
public final class PushApi extends TestApp {

    private PushApi(Database database, String appId) {
        super(database, appId);
    }

    /** A new app with push enabled. */
    public static PushApi newApp(Database database) {
        PushApi api = new PushApi(database, registerApp(database));
        api.execute("insert into push_apps (app_id, push_enabled) values (?, true)", api.appId);
        return api;
    }

    /** Registers a device of the user (as auth-service's device.registered would) and returns its push_token. */
    public String newDevice(long userId, int deviceSn) {
        String pushToken = "pt-" + UUID.randomUUID();
        execute("insert into push_devices (app_id, user_id, device_sn, push_token) values (?, ?, ?, ?)",
                appId, userId, deviceSn, pushToken);
        return pushToken;
    }

    /**
     * Registers {@code count} devices of the user (device_sn 1..count), each bound on the channel to a provider token
     * of 512 characters that take 3 bytes each in UTF-8 (any text without U+0000 is a valid token); returns their ids.
     */
    public List<Long> devicesWithLongTokens(long userId, int count, String channel) {
        return database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn,"
                    + " push_token) select ?, ?, sn, 'pt-' || ? || '-' || sn from generate_series(1, ?) sn")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                ps.setLong(3, userId);
                ps.setInt(4, count);
                ps.executeUpdate();
            }
            List<Long> ids = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("insert into push_device_tokens (device_id, channel, app_id,"
                    + " token, notifier_name, environment) select device_id, ?, app_id, lpad(device_id::text, 512, '€'),"
                    + " ?, 1 from push_devices where app_id = ? and user_id = ? returning device_id")) {
                ps.setString(1, channel);
                ps.setString(2, channel + "-prod");
                ps.setString(3, appId);
                ps.setLong(4, userId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
            }
            return ids;
        });
    }

    public long deviceId(String pushToken) {
        return database.read(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "select device_id from push_devices where app_id = ? and push_token = ?")) {
                ps.setString(1, appId);
                ps.setString(2, pushToken);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("no device with push_token " + pushToken);
                    }
                    return rs.getLong(1);
                }
            }
        });
    }

    /** Binds a provider token to the device, as POST /user/token/bind would (notifier_name is not checked here). */
    public void bindToken(String pushToken, String channel, String token) {
        execute("insert into push_device_tokens (device_id, channel, app_id, token, notifier_name, environment)"
                + " values (?, ?, ?, ?, ?, 1)", deviceId(pushToken), channel, appId, token, channel + "-prod");
    }

    /** The device is connected to the live channel, as presence.events would say. */
    public void setOnline(long userId, int deviceSn) {
        execute("insert into push_presence (app_id, user_id, device_sn, seq, online) values (?, ?, ?, 1, true)",
                appId, userId, deviceSn);
    }

    /** The device's live connection closed, as presence.events would say (its presence row stays, offline). */
    public void setOffline(long userId, int deviceSn) {
        execute("insert into push_presence (app_id, user_id, device_sn, seq, online) values (?, ?, ?, 2, false)"
                + " on conflict (app_id, user_id, device_sn) do update set seq = 2, online = false",
                appId, userId, deviceSn);
    }

    public void optOut(long userId) {
        execute("insert into push_users (app_id, user_id, push_disabled) values (?, ?, true)", appId, userId);
    }

    public void tag(long userId, String tag) {
        execute("insert into push_user_tags (app_id, tag, user_id) values (?, ?, ?)", appId, tag, userId);
    }

    public void alias(String pushToken, String alias) {
        execute("update push_devices set alias = ? where app_id = ? and push_token = ?", alias, appId, pushToken);
    }

    private void execute(String sql, Object... parameters) {
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < parameters.length; i++) {
                    ps.setObject(i + 1, parameters[i]);
                }
                ps.executeUpdate();
            }
            return null;
        });
    }
}
