package io.imcore.push.device;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * The device registry's inserts into {@code push_devices}, plain SQL because each is decided by the row's unique key
 * ({@code insert ... on conflict}) against the other: the device feed's upsert, and a bind's row created ahead of the
 * feed's event. The registry's edits go through the entities (DeviceRegistryService).
 */
@ApplicationScoped
public class DeviceStore {

    /**
     * Records a device auth-service registered, or fills the push_token of the row a bind created before the
     * event arrived. The event carries the device's full state, so a redelivery writes the same values again.
     */
    public void registered(Connection c, String appId, long userId, int deviceSn, String pushToken)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn, push_token)"
                + " values (?, ?, ?, ?) on conflict (app_id, user_id, device_sn)"
                + " do update set push_token = excluded.push_token")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.setString(4, pushToken);
            ps.executeUpdate();
        }
    }

    private OptionalLong deviceId(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select device_id from push_devices where app_id = ? and user_id = ? and device_sn = ?")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    /** Creates the device's row ahead of its device.registered event (push_token null until then); returns its id. */
    public long createAheadOfEvent(Connection c, String appId, long userId, int deviceSn) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_devices (app_id, user_id, device_sn)"
                + " values (?, ?, ?) on conflict (app_id, user_id, device_sn) do nothing")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.executeUpdate();
        }
        // the row is there now: inserted above, or by the event (or a concurrent bind) in the meantime
        return deviceId(c, appId, userId, deviceSn).orElseThrow();
    }
}
