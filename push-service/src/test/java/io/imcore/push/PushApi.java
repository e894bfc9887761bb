package io.imcore.push;

import io.imcore.common.store.Database;
import io.imcore.testing.TestApp;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.UUID;

/**
 * Test helper: a {@link TestApp} whose devices are written into the registry as the device.registered consumer
 * writes them, with push switched on unless a test switches it off.
 */
final class PushApi extends TestApp {

    private PushApi(Database database, String appId) {
        super(database, appId);
    }

    /** A new app with push enabled. */
    static PushApi newApp(Database database) {
        PushApi api = new PushApi(database, registerApp(database));
        api.database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("insert into push_apps (app_id, push_enabled) values (?, true)")) {
                ps.setString(1, api.appId);
                ps.executeUpdate();
            }
            return null;
        });
        return api;
    }

    /** Registers a device of the user (as auth-service's device.registered would) and returns its push_token. */
    String newDevice(long userId, int deviceSn) {
        String pushToken = "pt-" + UUID.randomUUID();
        database.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "insert into push_devices (app_id, user_id, device_sn, push_token) values (?, ?, ?, ?)")) {
                ps.setString(1, appId);
                ps.setLong(2, userId);
                ps.setInt(3, deviceSn);
                ps.setString(4, pushToken);
                ps.executeUpdate();
            }
            return null;
        });
        return pushToken;
    }

    long deviceId(String pushToken) {
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
}
