package io.imcore.push.device;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/** Live-connection presence per device ({@code push_presence}), as message-service's presence.events report it. */
@ApplicationScoped
public class DevicePresenceStore {

    /**
     * Records the device's presence unless a newer connection is already held: a higher seq always wins; at the same
     * seq only an offline applies (it ends that connection, and an ended connection never comes back).
     */
    public void apply(Connection c, String appId, long userId, int deviceSn, long seq, boolean online)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into push_presence"
                + " (app_id, user_id, device_sn, seq, online) values (?, ?, ?, ?, ?)"
                + " on conflict (app_id, user_id, device_sn) do update set seq = excluded.seq, online = excluded.online"
                + " where excluded.seq > push_presence.seq"
                + " or (excluded.seq = push_presence.seq and not excluded.online)")) {
            ps.setString(1, appId);
            ps.setLong(2, userId);
            ps.setInt(3, deviceSn);
            ps.setLong(4, seq);
            ps.setBoolean(5, online);
            ps.executeUpdate();
        }
    }
}
