package io.imcore.auth.store;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class DeviceStore {

    private static final String COLUMNS = "device_sn, device_guid, push_token, created_at, last_seen_at";

    /** Finds the user's device by guid and marks it seen now. */
    public Optional<DeviceRow> touch(Connection c, long userId, String deviceGuid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("update devices set last_seen_at = now()"
                + " where user_id = ? and device_guid = ? returning " + COLUMNS)) {
            ps.setLong(1, userId);
            ps.setString(2, deviceGuid);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    public DeviceRow insert(Connection c, long userId, int deviceSn, String deviceGuid, String pushToken)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("insert into devices (user_id, device_sn, device_guid, push_token)"
                + " values (?, ?, ?, ?) returning " + COLUMNS)) {
            ps.setLong(1, userId);
            ps.setInt(2, deviceSn);
            ps.setString(3, deviceGuid);
            ps.setString(4, pushToken);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return row(rs);
            }
        }
    }

    public List<DeviceRow> list(Connection c, long userId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "select " + COLUMNS + " from devices where user_id = ? order by device_sn")) {
            ps.setLong(1, userId);
            List<DeviceRow> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(row(rs));
                }
            }
            return rows;
        }
    }

    private static DeviceRow row(ResultSet rs) throws SQLException {
        return new DeviceRow(rs.getInt(1), rs.getString(2), rs.getString(3),
                rs.getTimestamp(4).toInstant(), rs.getTimestamp(5).toInstant());
    }
}
